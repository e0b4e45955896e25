import { BadRequestException, Body, Controller, Delete, Get, Patch, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { RateLimit } from '../common/rate-limit';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { readMultipartForm } from '../common/multipart';
import type { Principal } from '../common/principal';
import {
  ProfilePictureUploadDto,
  UpdateAdminProfileDto,
  UpdateProfileDto,
  UserData,
  UserResponseDto,
} from './dto/user.dto';
import { ProfilePicturesService } from './profile-pictures.service';
import { UsersService } from './users.service';

@ApiTags('profile')
@Controller()
export class ProfileController {
  constructor(
    private readonly users: UsersService,
    private readonly pictures: ProfilePicturesService,
  ) {}

  @Get('users/profile')
  @Auth()
  @ApiOperation({ summary: 'Your own account' })
  @Answer('Profile retrieved', UserResponseDto)
  async get(@CurrentUser() actor: Principal): Promise<UserData> {
    return { user: await this.users.get(actor.id) };
  }

  @Patch('users/profile')
  @Auth()
  @ApiOperation({ summary: 'Update your own name, phone number, county and street address' })
  @Answer('Profile updated successfully', UserResponseDto)
  async update(@CurrentUser() actor: Principal, @Body() dto: UpdateProfileDto): Promise<UserData> {
    return { user: await this.users.updateProfile(actor, dto) };
  }

  @Patch('users/profile-picture')
  @Auth()
  @RateLimit('uploads')
  @ApiOperation({
    summary:
      'Set your profile picture (JPEG, PNG or WebP by content, at most 5 MB; stored as WebP)',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ProfilePictureUploadDto })
  @Answer('Profile picture updated', UserResponseDto)
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'Not a readable image, or too many pixels',
  })
  async setPicture(
    @CurrentUser() actor: Principal,
    @Req() request: FastifyRequest,
  ): Promise<UserData> {
    const { file } = await readMultipartForm(request);
    if (!file || file.buffer.length === 0)
      throw new BadRequestException('Choose a picture to upload');
    return { user: await this.pictures.setProfilePicture(actor, file.buffer) };
  }

  @Delete('users/profile-picture')
  @Auth()
  @ApiOperation({ summary: 'Remove your profile picture' })
  @Answer('Profile picture removed', UserResponseDto)
  async removePicture(@CurrentUser() actor: Principal): Promise<UserData> {
    return { user: await this.pictures.removeProfilePicture(actor) };
  }

  @Patch('admin/profile')
  @Auth('admin')
  @ApiOperation({ summary: "Update the admin's own profile" })
  @Answer('Profile updated successfully', UserResponseDto)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Another account has this e-mail',
  })
  async updateAdmin(
    @CurrentUser() actor: Principal,
    @Body() dto: UpdateAdminProfileDto,
  ): Promise<UserData> {
    return { user: await this.users.updateAdminProfile(actor, dto) };
  }
}
