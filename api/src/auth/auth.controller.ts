import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { AUTH_BODY_LIMIT_BYTES, BodyLimit } from '../common/body-limit';
import { RateLimit } from '../common/rate-limit';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { MessageDto } from '../users/dto/user.dto';
import { AuthService, FORGOT_PASSWORD_MESSAGE } from './auth.service';
import {
  ChangePasswordDto,
  ForgotPasswordDto,
  LoginDto,
  LogoutDto,
  RefreshTokenDto,
  RegisterDto,
  RegisterResponseDto,
  ResetPasswordDto,
  SessionResponseDto,
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
  @ApiCreatedResponse({ type: RegisterResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The e-mail is taken' })
  async register(@Body() dto: RegisterDto): Promise<RegisterResponseDto> {
    return {
      success: true,
      message: 'Account created successfully. Please sign in.',
      user: await this.auth.register(dto),
    };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/login')
  @Public()
  @RateLimit('auth', { perAccount: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Sign in: the user, an access token and a refresh token' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Wrong e-mail or password' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The account is deactivated' })
  async login(@Body() dto: LoginDto): Promise<SessionResponseDto> {
    const { user, accessToken, refreshToken } = await this.auth.login(dto);
    return {
      success: true,
      message: 'Signed in successfully',
      data: { user, accessToken, refreshToken },
    };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/refreshToken')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Exchange a refresh token for a new pair (the old one stops working)' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The account is deactivated' })
  async refresh(@Body() dto: RefreshTokenDto): Promise<SessionResponseDto> {
    const { user, accessToken, refreshToken } = await this.auth.refresh(dto.refreshToken);
    return {
      success: true,
      message: 'Session refreshed',
      data: { user, accessToken, refreshToken },
    };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/logout')
  @Auth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Sign out: the refresh token (and its session) stops working' })
  @ApiOkResponse({ type: MessageDto })
  async logout(@CurrentUser() actor: Principal, @Body() dto: LogoutDto): Promise<MessageDto> {
    await this.auth.logout(actor, dto.refreshToken);
    return { success: true, message: 'Signed out successfully' };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/forgot/password')
  @Public()
  @RateLimit('auth', { perAccount: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'E-mail a reset link (same answer whether or not the account exists)' })
  @ApiOkResponse({ type: MessageDto })
  async forgot(@Body() dto: ForgotPasswordDto): Promise<MessageDto> {
    await this.auth.forgotPassword(dto.email);
    return { success: true, message: FORGOT_PASSWORD_MESSAGE };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/reset/password')
  @Public()
  @RateLimit('auth')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Set a new password with the code from the reset link (single use, one hour)',
  })
  @ApiOkResponse({ type: MessageDto })
  async reset(@Body() dto: ResetPasswordDto): Promise<MessageDto> {
    await this.auth.resetPassword(dto);
    return { success: true, message: 'Your password has been reset. You can now sign in.' };
  }

  @BodyLimit(AUTH_BODY_LIMIT_BYTES)
  @Post('auth/change/password')
  @Auth()
  @RateLimit('auth', { perAccount: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Change your password; other sessions end, this one gets a new token pair',
  })
  @ApiOkResponse({ type: TokenPairResponseDto })
  async changePassword(
    @CurrentUser() actor: Principal,
    @Body() dto: ChangePasswordDto,
  ): Promise<TokenPairResponseDto> {
    return {
      success: true,
      message: 'Password changed successfully',
      data: await this.auth.changePassword(actor, dto),
    };
  }
}
