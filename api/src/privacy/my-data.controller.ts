import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Res,
} from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal } from '../common/principal';
import { RateLimit } from '../common/rate-limit';
import { shopDay } from '../common/shop-clock';
import type { DataExport } from './data-export';
import { DataRequestsService } from './data-requests.service';
import {
  ConsentData,
  ConsentResponseDto,
  DeleteAccountDto,
  UpdateConsentDto,
} from './dto/privacy.dto';
import type { MarketingConsent } from './consents.service';
import { MyDataService } from './my-data.service';

const EXPORT_ANSWER = {
  description: 'One JSON file: `summary` (lines to read), then every record',
  content: { 'application/json': { schema: { type: 'object' } } },
};

function consentView(c: MarketingConsent): ConsentData {
  return {
    marketingSms: {
      granted: c.granted,
      at: c.at ? c.at.toISOString() : null,
      source: c.source,
      history: c.history.map((h) => ({ ...h, at: h.at.toISOString() })),
    },
  };
}

async function sendFile(reply: FastifyReply, name: string, data: DataExport): Promise<void> {
  await reply
    .header('Content-Type', 'application/json; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}-${shopDay(new Date())}.json"`)
    .header('Cache-Control', 'private, no-store')
    .send(JSON.stringify(data, null, 2));
}

/** A person's own data: download, deletion, consent; and the admin's download of a guest's. */
@ApiTags('privacy')
@Controller()
export class MyDataController {
  constructor(
    private readonly myData: MyDataService,
    private readonly requests: DataRequestsService,
  ) {}

  @Get('users/profile/data-export')
  @Auth()
  @ApiOperation({ summary: 'Download all your data as one JSON file (3 a day)' })
  @ApiOkResponse(EXPORT_ANSWER)
  async export(@CurrentUser() actor: Principal, @Res() reply: FastifyReply): Promise<void> {
    await sendFile(reply, 'my-data', await this.myData.export(actor));
  }

  @Post('users/profile/delete')
  @Auth()
  // A password check, as changing the password: the same limits, and wrong ones lock the account.
  @RateLimit('auth', { perAccount: true })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Delete your account (customers), confirmed with your password (wrong ones count toward the sign-in lockout); refused while an order is open',
  })
  @Answer('Your account was deleted')
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Wrong password' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Orders still open' })
  async delete(@CurrentUser() actor: Principal, @Body() dto: DeleteAccountDto): Promise<void> {
    await this.myData.deleteAccount(actor, dto.password);
  }

  @Get('users/profile/consents')
  @Auth()
  @ApiOperation({ summary: 'Your consent to offers by text message, and its history' })
  @Answer('Consents retrieved', ConsentResponseDto)
  async consents(@CurrentUser() actor: Principal): Promise<ConsentData> {
    return consentView(await this.myData.consent(actor));
  }

  @Patch('users/profile/consents')
  @Auth()
  @ApiOperation({ summary: 'Give or withdraw your consent to offers by text message' })
  @Answer('Consent saved', ConsentResponseDto)
  async setConsent(
    @CurrentUser() actor: Principal,
    @Body() dto: UpdateConsentDto,
  ): Promise<ConsentData> {
    return consentView(await this.myData.setConsent(actor, dto.marketingSms));
  }

  @Post('admin/data-requests/:id/export')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: "Answer a guest's request with their data (one JSON file to send them)",
  })
  @ApiOkResponse(EXPORT_ANSWER)
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Not confirmed, or answered already',
  })
  async exportForGuest(
    @CurrentUser() actor: Principal,
    @Param('id', new ParseUUIDPipe({ errorHttpStatusCode: 404 })) id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendFile(reply, 'guest-data', await this.requests.answerWithExport(actor, id));
  }
}
