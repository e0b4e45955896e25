import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { AUTH_BODY_LIMIT_BYTES, BodyLimit } from '../common/body-limit';
import { RateLimit } from '../common/rate-limit';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { AuthService, FORGOT_PASSWORD_MESSAGE } from './auth.service';
import {
  ChangePasswordDto,
  ForgotPasswordDto,
  LoginDto,
  LogoutDto,
  RefreshTokenDto,
  RegisterData,
  RegisterDto,
  RegisterResponseDto,
  ResetPasswordDto,
  SessionData,
  SessionResponseDto,
  TokenPairData,
  TokenPairResponseDto,
} from './dto/auth.dto';

@ApiTags('auth')
@Controller()
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post(['auth/register', 'user'])
  @Public()
  @RateLimit('auth', { perAccount: true })
  @ApiOperation({ summary: 'Create a customer account (also at POST /api/user)' })
  @Answer('Account created successfully. Please sign in.', RegisterResponseDto, {
    status: 201,
    description:
      'The same answer for an address that already has an account (its owner is e-mailed instead)',
  })
  async register(@Body() dto: RegisterDto): Promise<RegisterData> {
    return { user: await this.auth.register(dto) };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/login')
  @Public()
  @RateLimit('auth', { perAccount: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Sign in: the user, an access token and a refresh token' })
  @Answer('Signed in successfully', SessionResponseDto)
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Wrong e-mail or password' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The account is deactivated' })
  async login(@Body() dto: LoginDto): Promise<SessionData> {
    const { user, accessToken, refreshToken } = await this.auth.login(dto);
    return { data: { user, accessToken, refreshToken } };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/refreshToken')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Exchange a refresh token for a new pair (the old one stops working)' })
  @Answer('Session refreshed', SessionResponseDto)
  @ApiUnauthorizedResponse({ type: ErrorResponseDto })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The account is deactivated' })
  async refresh(@Body() dto: RefreshTokenDto): Promise<SessionData> {
    const { user, accessToken, refreshToken } = await this.auth.refresh(dto.refreshToken);
    return { data: { user, accessToken, refreshToken } };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/logout')
  @Auth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Sign out: the refresh token (and its session) stops working' })
  @Answer('Signed out successfully')
  async logout(@CurrentUser() actor: Principal, @Body() dto: LogoutDto): Promise<void> {
    await this.auth.logout(actor, dto.refreshToken);
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/forgot/password')
  @Public()
  @RateLimit('auth', { perAccount: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'E-mail a reset link (same answer whether or not the account exists)' })
  @Answer(FORGOT_PASSWORD_MESSAGE)
  async forgot(@Body() dto: ForgotPasswordDto): Promise<void> {
    await this.auth.forgotPassword(dto.email);
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/reset/password')
  @Public()
  @RateLimit('auth')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Set a new password with the code from the reset link (single use, one hour)',
  })
  @Answer('Your password has been reset. You can now sign in.')
  async reset(@Body() dto: ResetPasswordDto): Promise<void> {
    await this.auth.resetPassword(dto);
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/change/password')
  @Auth()
  @RateLimit('auth', { perAccount: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Change your password; other sessions end, this one gets a new token pair',
  })
  @Answer('Password changed successfully', TokenPairResponseDto)
  async changePassword(
    @CurrentUser() actor: Principal,
    @Body() dto: ChangePasswordDto,
  ): Promise<TokenPairData> {
    return { data: await this.auth.changePassword(actor, dto) };
  }
}
