import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Ip,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DataRequestsService } from './data-requests.service';
import {
  ConfirmDataRequestDto,
  CreateDataRequestDto,
  DataRequestCreatedData,
  DataRequestCreatedResponseDto,
  DataRequestData,
  DataRequestListData,
  DataRequestListResponseDto,
  DataRequestResponseDto,
  PrivacyNoticeData,
  PrivacyNoticeResponseDto,
  PrivacySettingsData,
  PrivacySettingsResponseDto,
  UpdatePrivacySettingsDto,
} from './dto/privacy.dto';
import { fillNotice, type PrivacySettings } from './privacy-defaults';
import { PrivacySettingsService } from './privacy-settings.service';
import { BodyLimit, PRIVACY_SETTINGS_BODY_LIMIT_BYTES } from '../common/body-limit';

function settingsView(s: PrivacySettings): PrivacySettingsData['settings'] {
  return { ...s, updatedAt: s.updatedAt ? new Date(s.updatedAt).toISOString() : null };
}

/** The privacy notice, and the requests of people without an account. */
@ApiTags('privacy')
@Controller()
export class PrivacyController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: PrivacySettingsService,
    private readonly requests: DataRequestsService,
  ) {}

  @Get('privacy/notice')
  @Public()
  @ApiOperation({ summary: "The shop's privacy notice, its data controller and retention periods" })
  @Answer('Privacy notice retrieved', PrivacyNoticeResponseDto)
  async notice(): Promise<PrivacyNoticeData> {
    const s = await this.settings.get();
    const retention = {
      taxRetentionYears: s.taxRetentionYears,
      smsOutboxDays: s.smsOutboxDays,
      mailLogDays: s.mailLogDays,
      contactMessageDays: s.contactMessageDays,
      requestDueDays: s.requestDueDays,
    };
    return {
      notice: {
        text: fillNotice(s.noticeText, retention),
        controller: { name: s.controllerName, ...this.config.shopContacts },
        retention,
        updatedAt: s.updatedAt ? new Date(s.updatedAt).toISOString() : null,
      },
    };
  }

  @Post('privacy/requests')
  @Public()
  @RateLimit('tracking')
  @ApiOperation({
    summary:
      'A guest asks for a copy or the erasure of their data: if the purchase number is a guest order given with this phone, a code is sent by SMS to it. The answer is the same either way; a request without a code can never be confirmed. Limited per phone and per network a day, and by the SMS budgets',
  })
  @Answer(
    'If this phone was given with a guest order of this number, a code was sent to it by SMS',
    DataRequestCreatedResponseDto,
    { status: 201 },
  )
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description:
      'The request is not valid (`errors` names each field and why), or the phone is no Kenyan mobile number',
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description: "SMS is off, or the shop's texts for the day are used up",
  })
  create(
    @Body() dto: CreateDataRequestDto,
    @Ip() clientAddress: string,
  ): Promise<DataRequestCreatedData> {
    return this.requests.create(dto, clientAddress);
  }

  @Post('privacy/requests/:id/confirm')
  @Public()
  @RateLimit('tracking')
  @HttpCode(200)
  @ApiOperation({ summary: "The guest gives the SMS code: the request joins the shop's queue" })
  @Answer('Your request is confirmed', DataRequestResponseDto)
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Wrong code' })
  @ApiGoneResponse({ type: ErrorResponseDto, description: 'Code expired or tried too often' })
  async confirm(
    @Param('id', new ParseUUIDPipe({ errorHttpStatusCode: 404 })) id: string,
    @Body() dto: ConfirmDataRequestDto,
  ): Promise<DataRequestData> {
    return { request: await this.requests.confirm(id, dto.code) };
  }

  @Get('admin/privacy/settings')
  @Auth('admin')
  @ApiOperation({ summary: 'The privacy notice as edited, and the retention periods' })
  @Answer('Privacy settings retrieved', PrivacySettingsResponseDto)
  async getSettings(): Promise<PrivacySettingsData> {
    return { settings: settingsView(await this.settings.get()) };
  }

  @Put('admin/privacy/settings')
  @Auth('admin')
  @BodyLimit(PRIVACY_SETTINGS_BODY_LIMIT_BYTES)
  @ApiOperation({
    summary:
      'Change the notice or the retention periods (pruning follows at once); the audit trail records what changed',
  })
  @Answer('Privacy settings saved', PrivacySettingsResponseDto)
  async putSettings(
    @CurrentUser() actor: Principal,
    @Body() dto: UpdatePrivacySettingsDto,
  ): Promise<PrivacySettingsData> {
    return { settings: settingsView(await this.settings.update(actor, dto)) };
  }

  @Get('admin/data-requests')
  @Auth('admin')
  @ApiOperation({ summary: "Guests' confirmed data requests, open ones first, soonest due first" })
  @Answer('Data requests retrieved', DataRequestListResponseDto)
  async queue(): Promise<DataRequestListData> {
    return { requests: await this.requests.queue() };
  }

  @Post('admin/data-requests/:id/erase')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({ summary: "Answer a request by erasing the guest's contacts from their orders" })
  @Answer("The guest's contacts were erased", DataRequestResponseDto)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Answered already, or orders open' })
  async erase(
    @CurrentUser() actor: Principal,
    @Param('id', new ParseUUIDPipe({ errorHttpStatusCode: 404 })) id: string,
  ): Promise<DataRequestData> {
    return { request: await this.requests.answerWithErasure(actor, id) };
  }
}
