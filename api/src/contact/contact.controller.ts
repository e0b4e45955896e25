import { Body, Controller, Get, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { CONTACT_MESSAGES } from '@spc/shared-contracts';
import { Answer } from '../common/answer';
import { Auth, Public } from '../common/access.decorators';
import { BodyLimit, CONTACT_BODY_LIMIT_BYTES } from '../common/body-limit';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import { RateLimit } from '../common/rate-limit';
import type { Principal } from '../common/principal';
import { ContactService } from './contact.service';
import {
  ContactMessageData,
  ContactMessageDto,
  ContactMessageListData,
  ContactMessageListQueryDto,
  ContactMessageListResponseDto,
  ContactMessageResponseDto,
  ContactSentData,
  ContactSentResponseDto,
  MarkReadDto,
} from './dto/contact.dto';

@ApiTags('contact')
@Controller()
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @Post('contact')
  @Public({ optionalUser: true })
  @BodyLimit(CONTACT_BODY_LIMIT_BYTES, { values: 20 })
  @RateLimit('contact')
  @ApiOperation({
    summary:
      "Send the shop a message from the contact page: stored for the back office, e-mailed to the shop's address, confirmed to the sender by e-mail",
  })
  @Answer(CONTACT_MESSAGES.sent, ContactSentResponseDto, { status: 201 })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description: 'Too many messages this hour from this address or for this e-mail',
  })
  send(
    @CurrentUser() actor: Principal | undefined,
    @Body() dto: ContactMessageDto,
    @Ip() clientAddress: string,
  ): Promise<ContactSentData> {
    return this.contact.send(dto, clientAddress, actor?.id ?? null);
  }

  @Get('contact-messages')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Contact-form messages, newest first (all, unread or read), by page' })
  @Answer('Messages retrieved', ContactMessageListResponseDto)
  list(@Query() query: ContactMessageListQueryDto): Promise<ContactMessageListData> {
    return this.contact.list(query);
  }

  @Patch('contact-messages/:id/read')
  @Auth('admin', 'staff')
  @ApiOperation({ summary: 'Mark a contact-form message read (or unread again)' })
  @Answer('Message updated', ContactMessageResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async markRead(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: MarkReadDto,
  ): Promise<ContactMessageData> {
    return { contactMessage: await this.contact.markRead(actor, id, dto.read) };
  }
}
