import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BudgetAlerts } from './budget-alerts';
import { PasswordHasher } from './password-hasher';
import { ProfileController } from './profile.controller';
import { User, UserSchema } from './schemas/user.schema';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: User.name, schema: UserSchema }])],
  controllers: [UsersController, ProfileController],
  providers: [UsersService, UsersRepository, PasswordHasher, BudgetAlerts],
  exports: [UsersService, BudgetAlerts],
})
export class UsersModule {}
