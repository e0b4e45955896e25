import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { MongooseModule } from '@nestjs/mongoose';
import { PassportModule } from '@nestjs/passport';
import { AccessRulesCheck } from '../common/access-rules.check';
import { AccessGuard } from '../common/access.guard';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { UsersModule } from '../users/users.module';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { AuthController } from './auth.controller';
import { AuthPersonalData } from './auth-personal-data';
import { AuthService } from './auth.service';
import { CredentialsService } from './credentials.service';
import { JwtStrategy } from './jwt.strategy';
import { PasswordReset, PasswordResetSchema } from './schemas/password-reset.schema';
import { RefreshFamily, RefreshFamilySchema } from './schemas/refresh-family.schema';
import { RefreshToken, RefreshTokenSchema } from './schemas/refresh-token.schema';
import { ACCESS_TOKEN_TTL_SECONDS, TokensService } from './tokens.service';
import { TokensRepository } from './tokens.repository';

@Module({
  imports: [
    UsersModule,
    DiscoveryModule,
    PassportModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        secret: config.jwt.accessSecret,
        signOptions: { expiresIn: ACCESS_TOKEN_TTL_SECONDS, algorithm: 'HS256' },
      }),
    }),
    MongooseModule.forFeature([
      { name: RefreshToken.name, schema: RefreshTokenSchema },
      { name: RefreshFamily.name, schema: RefreshFamilySchema },
      { name: PasswordReset.name, schema: PasswordResetSchema },
    ]),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    CredentialsService,
    TokensService,
    TokensRepository,
    JwtStrategy,
    AdminBootstrapService,
    AccessRulesCheck,
    AuthPersonalData,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  // A signed-in step confirmed by the password (deleting one's account) checks it here, under the lockout.
  exports: [CredentialsService],
})
export class AuthModule {}
