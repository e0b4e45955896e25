import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsMongoId,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { LIMITS, ROLES, TEXT_LIMITS } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { PageQueryDto } from '../../common/pagination';
import {
  EmailField,
  FullNameField,
  KraPinField,
  OptionalTextField,
  PhoneField,
} from '../../common/validation-decorators';

/** A user as every endpoint shows it. */
export class UserDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'Wanjiku Kamau' })
  fullName!: string;
  @ApiProperty({ example: 'wanjiku@example.co.ke' })
  email!: string;
  @ApiProperty({ example: '0712345678' })
  phoneNumber!: string;
  @ApiProperty({ enum: ROLES })
  role!: string;
  @ApiProperty({ description: 'False once deactivated' })
  isActive!: boolean;
  @ApiProperty({ example: 'Kiambu' })
  county!: string;
  @ApiProperty({ example: 'Ruiru, near the stage' })
  streetAddress!: string;
  @ApiProperty({ description: 'URL path of the profile picture, or empty', example: '' })
  profilePicture!: string;
  @ApiProperty({ description: 'Order text messages (SMS) wanted; false once turned off' })
  smsNotifications!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'A012345678Z',
    description: "The KRA PIN the customer's receipts are tax invoices to; null: none",
  })
  kraPin!: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class UserData {
  @ApiProperty({ type: UserDto })
  user!: UserDto;
}

export class UserResponseDto extends Envelope(UserData) {}

export class UserListData {
  @ApiProperty({ type: [UserDto] })
  users!: UserDto[];
  @ApiProperty({ example: 42 })
  totalUsers!: number;
  @ApiProperty({ example: 5 })
  totalPages!: number;
  @ApiProperty({ example: 1 })
  page!: number;
}

export class UserListResponseDto extends Envelope(UserListData) {}

export class UserListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Part of the name or e-mail, any case' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

export class UpdatedUserDto {
  @FullNameField({ optional: true })
  fullName?: string;

  @EmailField({ optional: true })
  email?: string;

  @PhoneField(LIMITS.checkoutPhoneMaxLength, { optional: true })
  phoneNumber?: string;

  @OptionalTextField(TEXT_LIMITS.county, 'County', 'Kiambu')
  county?: string;

  @OptionalTextField(TEXT_LIMITS.streetAddress, 'Street address', 'Ruiru, near the stage')
  streetAddress?: string;
}

/** `PATCH /api/user/update/:id`: `{ _id, updatedUser }` (the shape the storefront and back office send). */
export class UpdateUserDto {
  @ApiProperty({ description: 'Must equal the id in the path' })
  @IsNotEmpty({ message: '_id is required' })
  @IsMongoId({ message: '_id is not a valid id' })
  _id!: string;

  @ApiProperty({ type: UpdatedUserDto })
  @ValidateNested()
  @Type(() => UpdatedUserDto)
  @IsNotEmpty({ message: 'updatedUser is required' })
  updatedUser!: UpdatedUserDto;
}

/** `PATCH /api/users/profile`: own profile of a staff member or customer. */
export class UpdateProfileDto {
  @FullNameField()
  fullName!: string;

  @PhoneField(LIMITS.checkoutPhoneMaxLength, { requiredMessage: 'Phone Number is required' })
  phoneNumber!: string;

  @OptionalTextField(TEXT_LIMITS.county, 'County', 'Kiambu')
  county?: string;

  @OptionalTextField(TEXT_LIMITS.streetAddress, 'Street address', 'Ruiru, near the stage')
  streetAddress?: string;

  @ApiPropertyOptional({
    description:
      'Order text messages (SMS): false turns them off, true on; unchanged when left out',
  })
  @IsOptional()
  @IsBoolean({ message: 'smsNotifications must be true or false' })
  smsNotifications?: boolean;

  @KraPinField({
    emptyIsNone: true,
    description:
      'Your KRA PIN (A or P, 9 digits, a letter), so your receipts are tax invoices in your name: trimmed and upper-cased. Empty: none. Unchanged when left out or null',
  })
  kraPin?: string | null;
}

/** `PATCH /api/admin/profile`. */
export class UpdateAdminProfileDto extends UpdatedUserDto {}

export class ProfilePictureUploadDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'JPEG, PNG or WebP, at most 5 MB' })
  profilePicture!: unknown;
}
