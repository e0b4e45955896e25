import { Body, Controller, HttpCode, Inject, Logger, Param, Post } from '@nestjs/common';
import { ApiConsumes, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Public } from '../common/access.decorators';
import { ErrorResponseDto } from '../common/error-response.dto';
import { RateLimit } from '../common/rate-limit';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { checkSmsGatewayCaller } from '../sms/sms-gateway-caller';
import { ConsentsService, isStopReply } from './consents.service';
import { InboundSmsData, InboundSmsDto, InboundSmsResponseDto } from './dto/privacy.dto';

/**
 * The route Africa's Talking posts replies to (its "incoming messages" callback URL, given as
 * `<api>/api/sms/inbound/<SMS_INBOUND_TOKEN>`).
 */
export const SMS_INBOUND_PATH = '/api/sms/inbound/:token';

/**
 * Replies customers send to the shop's number. A STOP (or UNSUBSCRIBE, ACHA…) withdraws every
 * marketing consent given for that number; other replies are acknowledged and dropped. Only the
 * gateway knows the secret in the path (anyone else gets 404), and the answer is the same whoever
 * the number belongs to and whatever it had consented to: the route tells nobody who is on the
 * shop's list.
 */
@ApiTags('privacy')
@Controller('sms')
export class SmsInboundController {
  private readonly logger = new Logger('SmsInbound');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly consents: ConsentsService,
  ) {}

  @Post('inbound/:token')
  @Public()
  @RateLimit('smsInbound')
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiParam({ name: 'token', description: 'SMS_INBOUND_TOKEN, as given to the gateway' })
  @ApiOperation({
    summary:
      "The SMS gateway's incoming-message callback (the secret token is part of the URL given to the gateway): STOP ends marketing texts",
  })
  @Answer('Reply received', InboundSmsResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wrong token, or SMS is off' })
  async inbound(
    @Param('token') token: string,
    @Body() dto: InboundSmsDto,
  ): Promise<InboundSmsData> {
    checkSmsGatewayCaller(this.config.sms, token);
    if (isStopReply(dto.text ?? '')) {
      const withdrawn = await this.consents.stopFrom(dto.from);
      this.logger.log(`A STOP reply withdrew ${withdrawn} marketing consent(s)`);
    }
    return { received: true };
  }
}
