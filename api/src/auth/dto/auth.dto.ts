import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { LIMITS, VALIDATION_MESSAGES as M } from '@spc/shared-contracts';
import {
  EmailField,
  FullNameField,
  NewPasswordField,
  PasswordField,
  PhoneField,
  trim,
} from '../../common/validation-decorators';
import { Envelope } from '../../common/answer';
import { UserDto } from '../../users/dto/user.dto';

export class RegisterDto {
  @FullNameField()
  fullName!: string;

  @EmailField()
  email!: string;

  @PhoneField(LIMITS.checkoutPhoneMaxLength)
  phoneNumber!: string;

  @NewPasswordField()
  password!: string;
}

export class LoginDto {
  @EmailField({ invalidMessage: M.emailRequired })
  email!: string;

  @PasswordField()
  password!: string;
}

class RefreshTokenField {
  @ApiProperty({ description: 'The refresh token from sign-in or the last refresh' })
  @trim
  @IsNotEmpty({ message: 'refreshToken is required' })
  @IsString()
  @MaxLength(200)
  refreshToken!: string;
}

export class RefreshTokenDto extends RefreshTokenField {}
export class LogoutDto extends RefreshTokenField {}

export class ForgotPasswordDto {
  @EmailField()
  email!: string;
}

export class ResetPasswordDto {
  @ApiProperty({
    description:
      'The code from the reset link (the last part of /authenticate/resetPassword/<code>)',
  })
  @IsNotEmpty({ message: 'The reset code is missing' })
  @IsString()
  @MaxLength(200, { message: 'The reset code is not valid' })
  code!: string;

  @NewPasswordField()
  password!: string;
}

export class ChangePasswordDto {
  @PasswordField({ requiredMessage: M.oldPasswordRequired })
  currentPassword!: string;

  @NewPasswordField({ requiredMessage: M.newPasswordRequired })
  newPassword!: string;
}

export class TokenPairDto {
  @ApiProperty({ description: 'JWT for the Authorization header; valid 15 minutes' })
  accessToken!: string;
  @ApiProperty({
    description: 'Opaque; exchange at /api/auth/refreshToken; valid 7 days, single use',
  })
  refreshToken!: string;
}

export class SessionDto extends TokenPairDto {
  @ApiProperty({ type: UserDto })
  user!: UserDto;
}

export class SessionData {
  @ApiProperty({ type: SessionDto })
  data!: SessionDto;
}

export class SessionResponseDto extends Envelope(SessionData) {}

export class TokenPairData {
  @ApiProperty({ type: TokenPairDto })
  data!: TokenPairDto;
}

export class TokenPairResponseDto extends Envelope(TokenPairData) {}

export class RegisterData {
  @ApiProperty({ type: UserDto })
  user!: UserDto;
}

export class RegisterResponseDto extends Envelope(RegisterData) {}
