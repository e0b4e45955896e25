import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BudgetAlerts } from './budget-alerts';
import { PasswordHasher } from './password-hasher';
import { ProfilePicturesService } from './profile-pictures.service';
import { ProfileController } from './profile.controller';
import { User, UserSchema } from './schemas/user.schema';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { UsersPersonalData } from './users-personal-data';

@Module({
  imports: [MongooseModule.forFeature([{ name: User.name, schema: UserSchema }])],
  controllers: [UsersController, ProfileController],
  providers: [
    UsersService,
    UsersRepository,
    PasswordHasher,
    ProfilePicturesService,
    BudgetAlerts,
    UsersPersonalData,
  ],
  // The repository and the hasher are auth/credentials.service.ts's too.
  exports: [UsersService, UsersRepository, PasswordHasher, BudgetAlerts, ProfilePicturesService],
})
export class UsersModule {}
