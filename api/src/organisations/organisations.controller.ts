import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { ORGANISATION_LIMITS, ORGANISATION_MESSAGES as OM } from '@spc/shared-contracts';
import { Answer, said } from '../common/answer';
import { Auth } from '../common/access.decorators';
import { CurrentUser } from '../common/current-user.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ParseObjectIdPipe } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import {
  CreateOrganisationDto,
  MyOrganisationResponseDto,
  OrganisationListQueryDto,
  OrganisationListResponseDto,
  OrganisationResponseDto,
  OrganisationStatusDto,
  UpdateOrganisationDto,
} from './dto/organisation.dto';
import {
  ChangeRoleDto,
  InvitationResponseDto,
  InviteDto,
  PersonRemovedResponseDto,
} from './dto/organisation-people.dto';
import { OrganisationTermsDto, PriceListDto } from './dto/organisation-terms.dto';
import { OrganisationPeopleService } from './organisation-people.service';
import { OrganisationsService } from './organisations.service';

const NOT_FOUND = 'No such organisation, or not one the caller buys for';
const Id = () => Param('id', ParseObjectIdPipe);

/**
 * Business accounts. Any signed-in account may call the organisation routes: a customer acts on
 * the organisation they buy for (any other id answers 404), as its approver or buyer; staff and
 * admins on every one. Terms and price lists are the admins' alone.
 */
@ApiTags('organisations')
@Controller('organisations')
@ApiBadRequestResponse({ type: ErrorResponseDto })
export class OrganisationsController {
  constructor(
    private readonly orgs: OrganisationsService,
    private readonly people: OrganisationPeopleService,
  ) {}

  @Post()
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      'Sign up an organisation (a customer: awaiting approval, they are its approver) or register one (staff, admins: approved)',
  })
  @Answer('Organisation registered', OrganisationResponseDto, { status: 201 })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description:
      'KRA_PIN_TAKEN: the PIN is registered; ALREADY_IN_ORGANISATION: the customer buys for one',
  })
  async create(@CurrentUser() actor: Principal, @Body() dto: CreateOrganisationDto) {
    return { organisation: await this.orgs.create(actor, dto) };
  }

  @Get()
  @Auth('staff', 'admin')
  @ApiOperation({ summary: 'Organisations, newest first, by status, kind, name or KRA PIN' })
  @Answer('Organisations retrieved', OrganisationListResponseDto)
  list(@Query() query: OrganisationListQueryDto) {
    return this.orgs.list(query);
  }

  @Get('mine')
  @Auth('customer')
  @ApiOperation({
    summary: 'The organisation the signed-in customer buys for, and their role (nulls: none)',
  })
  @Answer('Organisation retrieved', MyOrganisationResponseDto)
  mine(@CurrentUser() actor: Principal) {
    return this.orgs.mine(actor);
  }

  @Get(':id')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: 'An organisation with its people, terms and price list' })
  @Answer('Organisation retrieved', OrganisationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  async get(@CurrentUser() actor: Principal, @Id() id: string) {
    return { organisation: await this.orgs.get(actor, id) };
  }

  @Patch(':id')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary: 'Change an organisation: its approvers the contacts; staff and admins anything',
  })
  @Answer('Organisation updated', OrganisationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'KRA_PIN_TAKEN' })
  async update(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: UpdateOrganisationDto,
  ) {
    return { organisation: await this.orgs.update(actor, id, dto) };
  }

  @Post(':id/approve')
  @Auth('staff', 'admin')
  @ApiOperation({ summary: 'Approve an organisation awaiting approval, suspended or declined' })
  @Answer('Organisation approved', OrganisationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'ILLEGAL_TRANSITION: already approved',
  })
  async approve(@CurrentUser() actor: Principal, @Id() id: string) {
    return { organisation: await this.orgs.act(actor, id, 'approve') };
  }

  @Post(':id/suspend')
  @Auth('staff', 'admin')
  @ApiOperation({ summary: 'Suspend an approved organisation: it no longer buys on its terms' })
  @Answer('Organisation suspended', OrganisationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'ILLEGAL_TRANSITION: not approved' })
  async suspend(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: OrganisationStatusDto,
  ) {
    return { organisation: await this.orgs.act(actor, id, 'suspend', dto.reason) };
  }

  @Post(':id/decline')
  @Auth('staff', 'admin')
  @ApiOperation({ summary: 'Decline an organisation awaiting approval' })
  @Answer('Organisation declined', OrganisationResponseDto, { status: 201 })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'ILLEGAL_TRANSITION: not awaiting approval',
  })
  async decline(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: OrganisationStatusDto,
  ) {
    return { organisation: await this.orgs.act(actor, id, 'decline', dto.reason) };
  }

  @Put(':id/terms')
  @Auth('admin')
  @ApiOperation({
    summary: 'Set payment days, the credit limit (whole KES) and ordering on account',
  })
  @Answer('Terms set', OrganisationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async setTerms(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Body() dto: OrganisationTermsDto,
  ) {
    return { organisation: await this.orgs.setTerms(actor, id, dto) };
  }

  @Put(':id/price-list')
  @Auth('admin')
  @ApiOperation({
    summary:
      "Replace the price list: a price per product and sale unit, and a discount on the shop's price elsewhere",
  })
  @Answer('Price list set', OrganisationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async setPriceList(@CurrentUser() actor: Principal, @Id() id: string, @Body() dto: PriceListDto) {
    return { organisation: await this.orgs.setPriceList(actor, id, dto) };
  }

  @Post(':id/invitations')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary:
      "Invite a person by their customer account's e-mail (its approvers, staff, admins); the same answer whether or not the address has an account",
  })
  @Answer(OM.invitationSent(ORGANISATION_LIMITS.invitationDays), InvitationResponseDto, {
    status: 201,
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: NOT_FOUND })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Already one of its people, or declined',
  })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many invitations today' })
  async invite(@CurrentUser() actor: Principal, @Id() id: string, @Body() dto: InviteDto) {
    return { invitation: await this.people.invite(actor, id, dto.email, dto.role) };
  }

  @Delete(':id/invitations/:invitationId')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: 'Withdraw a waiting invitation (its approvers, staff, admins)' })
  @Answer('Invitation withdrawn', OrganisationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async withdraw(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Param('invitationId', ParseObjectIdPipe) invitationId: string,
  ) {
    return { organisation: await this.people.withdraw(actor, id, invitationId) };
  }

  @Patch(':id/people/:accountId')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({ summary: "Change a person's role (its approvers, staff, admins)" })
  @Answer('Role changed', OrganisationResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'LAST_APPROVER' })
  async changeRole(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Param('accountId', ParseObjectIdPipe) accountId: string,
    @Body() dto: ChangeRoleDto,
  ) {
    return { organisation: await this.people.changeRole(actor, id, accountId, dto.role) };
  }

  @Delete(':id/people/:accountId')
  @Auth('customer', 'staff', 'admin')
  @ApiOperation({
    summary: 'Remove a person (its approvers, staff, admins), or leave (the person themselves)',
  })
  @Answer('Person removed', PersonRemovedResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'LAST_APPROVER' })
  async remove(
    @CurrentUser() actor: Principal,
    @Id() id: string,
    @Param('accountId', ParseObjectIdPipe) accountId: string,
  ) {
    const organisation = await this.people.remove(actor, id, accountId);
    return organisation ? { organisation } : said('You left the organisation', { organisation });
  }
}
