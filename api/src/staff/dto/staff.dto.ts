import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsMongoId, IsNotEmpty, ValidateNested } from 'class-validator';
import { LIMITS, VALIDATION_MESSAGES as M } from '@spc/shared-contracts';
import {
  EmailField,
  FullNameField,
  NewPasswordField,
  PhoneField,
} from '../../common/validation-decorators';
import { Envelope } from '../../common/answer';
import { UserDto } from '../../users/dto/user.dto';

export class CreateStaffDto {
  @FullNameField({ requiredMessage: M.staffFullNameRequired })
  fullName!: string;

  @EmailField()
  email!: string;

  @PhoneField(LIMITS.staffPhoneMaxLength)
  phoneNumber!: string;

  @NewPasswordField({ staff: true })
  password!: string;
}

export class UpdatedStaffDto {
  @FullNameField({ optional: true, requiredMessage: M.staffFullNameRequired })
  fullName?: string;

  @EmailField({ optional: true })
  email?: string;

  @PhoneField(LIMITS.staffPhoneMaxLength, { optional: true })
  phoneNumber?: string;
}

/** `PATCH /api/staff/update/:id`: `{ _id, updatedStaff }`. */
export class UpdateStaffDto {
  @ApiProperty({ description: 'Must equal the id in the path' })
  @IsNotEmpty({ message: '_id is required' })
  @IsMongoId({ message: '_id is not a valid id' })
  _id!: string;

  @ApiProperty({ type: UpdatedStaffDto })
  @ValidateNested()
  @Type(() => UpdatedStaffDto)
  @IsNotEmpty({ message: 'updatedStaff is required' })
  updatedStaff!: UpdatedStaffDto;
}

export class StaffData {
  @ApiProperty({ type: UserDto })
  staff!: UserDto;
}

export class StaffResponseDto extends Envelope(StaffData) {}

export class StaffListData {
  @ApiProperty({ type: [UserDto] })
  staff!: UserDto[];
  @ApiProperty({ example: 4 })
  totalStaff!: number;
  @ApiProperty({ example: 1 })
  totalPages!: number;
  @ApiPropertyOptional({ example: 1 })
  page!: number;
}

export class StaffListResponseDto extends Envelope(StaffListData) {}
