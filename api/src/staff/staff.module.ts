import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { StaffController } from './staff.controller';
import { StaffService } from './staff.service';

@Module({ imports: [UsersModule], controllers: [StaffController], providers: [StaffService] })
export class StaffModule {}
