import { Body, Controller, HttpCode, Logger, Post } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Public } from '../common/access.decorators';
import { ConsentsService, isStopReply } from './consents.service';
import { InboundSmsData, InboundSmsDto, InboundSmsResponseDto } from './dto/privacy.dto';

/** The path Africa's Talking posts replies to (its "incoming messages" callback URL). */
export const SMS_INBOUND_PATH = '/api/sms/inbound';

/**
 * Replies customers send to the shop's number. A STOP (or UNSUBSCRIBE, ACHA…) withdraws every
 * marketing consent given for that number; other replies are acknowledged and dropped. Public like
 * every gateway callback: a forged STOP can only withdraw consent, never give it.
 */
@ApiTags('privacy')
@Controller('sms')
export class SmsInboundController {
  private readonly logger = new Logger('SmsInbound');

  constructor(private readonly consents: ConsentsService) {}

  @Post('inbound')
  @Public()
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiOperation({
    summary: "The SMS gateway's incoming-message callback: STOP ends marketing texts",
  })
  @Answer('Reply received', InboundSmsResponseDto)
  async inbound(@Body() dto: InboundSmsDto): Promise<InboundSmsData> {
    if (!isStopReply(dto.text ?? '')) return { withdrawn: 0 };
    const withdrawn = await this.consents.stopFrom(dto.from);
    this.logger.log(`A STOP reply withdrew ${withdrawn} marketing consent(s)`);
    return { withdrawn };
  }
}
