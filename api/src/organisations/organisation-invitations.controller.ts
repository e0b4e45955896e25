import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiConflictResponse,
} from '@nestjs/swagger';
import { Answer, MessageDto } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import { OrganisationResponseDto } from './dto/organisation.dto';
import { AnswerInvitationDto, MyInvitationsResponseDto } from './dto/organisation-people.dto';
import { OrganisationPeopleService } from './organisation-people.service';

/** A customer's own invitations to buy for an organisation: read, accept, decline. */
@ApiTags('organisations')
@Controller('organisation-invitations')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class OrganisationInvitationsController {
  constructor(private readonly people: OrganisationPeopleService) {}

  @Get()
  @Auth('customer')
  @ApiOperation({ summary: 'The invitations the signed-in customer may accept, oldest first' })
  @Answer('Invitations retrieved', MyInvitationsResponseDto)
  async mine(@CurrentUser() actor: Principal) {
    return { invitations: await this.people.mine(actor) };
  }

  @Post(':id/accept')
  @Auth('customer')
  @ApiOperation({ summary: 'Join the organisation in the invitation’s role' })
  @Answer('You joined the organisation', OrganisationResponseDto, { status: 201 })
  @ApiNotFoundResponse({
    type: ErrorResponseDto,
    description: 'No open invitation to this account with this code',
  })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'ALREADY_IN_ORGANISATION: the account buys for an organisation already',
  })
  async accept(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: AnswerInvitationDto,
  ) {
    return { organisation: await this.people.accept(actor, id, dto.code) };
  }

  @Post(':id/decline')
  @Auth('customer')
  @ApiOperation({ summary: 'Decline an invitation: it is deleted' })
  @Answer('Invitation declined', MessageDto, { status: 201 })
  @ApiNotFoundResponse({
    type: ErrorResponseDto,
    description: 'No open invitation to this account with this code',
  })
  decline(
    @CurrentUser() actor: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: AnswerInvitationDto,
  ) {
    return this.people.decline(actor, id, dto.code);
  }
}
