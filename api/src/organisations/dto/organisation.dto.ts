import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  LIMITS,
  ORGANISATION_KINDS,
  ORGANISATION_LIMITS as L,
  ORGANISATION_MESSAGES as OM,
  ORGANISATION_ROLES,
  ORGANISATION_STATUSES,
  type OrganisationKind,
  type OrganisationRole,
  type OrganisationStatus,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { PageQueryDto } from '../../common/pagination';
import {
  EmailField,
  KraPinField,
  PhoneField,
  SINGLE_LINE_TEXT_PATTERN,
  singleLineText,
  trim,
} from '../../common/validation-decorators';
import { OrganisationTermsViewDto } from './organisation-terms.dto';

const KRA_PIN_EXAMPLE = 'P051234567X';

/** One line of text, required unless `optional`, at most `max` characters. */
function TextField(max: number, requiredMessage: string, tooLong: string, optional = false) {
  const doc = { maxLength: max, pattern: SINGLE_LINE_TEXT_PATTERN };
  return applyDecorators(
    optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
    singleLineText,
    ...(optional ? [IsOptional()] : []),
    IsNotEmpty({ message: requiredMessage }),
    IsString({ message: requiredMessage }),
    MaxLength(max, { message: tooLong }),
  );
}

function KindField(optional = false) {
  const doc = { enum: ORGANISATION_KINDS, enumName: 'OrganisationKind' };
  return applyDecorators(
    optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
    ...(optional ? [IsOptional()] : []),
    IsIn(ORGANISATION_KINDS, { message: OM.kindInvalid }),
  );
}

/** Optional, it may be left out but not null: the document cannot say a `$ref` may be null. */
function ContactField(optional = false) {
  return applyDecorators(
    optional ? ApiPropertyOptional({ type: ContactDto }) : ApiProperty({ type: ContactDto }),
    ...(optional ? [ValidateIf((_, value) => value !== undefined)] : []),
    IsObject({ message: OM.contactRequired }),
    ValidateNested(),
    Type(() => ContactDto),
  );
}

/** A billing or delivery contact: a person's name, phone (the shop's phone rule) and e-mail. */
export class ContactDto {
  @TextField(
    L.contactName,
    OM.contactNameRequired,
    `A contact's name must be at most ${L.contactName} characters`,
  )
  name!: string;

  @PhoneField(LIMITS.checkoutPhoneMaxLength)
  phone!: string;

  @EmailField()
  email!: string;
}

const NAME_TOO_LONG = `The organisation's name must be at most ${L.name} characters`;

/** `POST /api/organisations`: a customer's sign-up, or staff creating one. */
export class CreateOrganisationDto {
  @TextField(L.name, OM.nameRequired, NAME_TOO_LONG)
  name!: string;

  @KraPinField()
  kraPin!: string;

  @KindField()
  kind!: OrganisationKind;

  @ContactField()
  billingContact!: ContactDto;

  @ContactField()
  deliveryContact!: ContactDto;
}

/**
 * `PATCH /api/organisations/:id`: any of these. Its approvers change the contacts; the name, KRA
 * PIN and kind, which the shop approved and its invoices carry, are changed by staff and admins.
 * A field left out (a text also when null) stays as it is: none given, the organisation is
 * answered unchanged.
 */
export class UpdateOrganisationDto {
  @TextField(L.name, OM.nameRequired, NAME_TOO_LONG, true)
  name?: string;

  @KraPinField({ optional: true })
  kraPin?: string;

  @KindField(true)
  kind?: OrganisationKind;

  @ContactField(true)
  billingContact?: ContactDto;

  @ContactField(true)
  deliveryContact?: ContactDto;
}

/** `POST /api/organisations/:id/suspend|decline` (and approve): the shop's words to its people. */
export class OrganisationStatusDto {
  @ApiPropertyOptional({
    maxLength: L.statusReason,
    example: 'The KRA PIN does not match the name',
  })
  @trim
  @IsOptional()
  @IsString()
  @MaxLength(L.statusReason, { message: `The reason must be at most ${L.statusReason} characters` })
  reason?: string;
}

export class OrganisationListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ORGANISATION_STATUSES, enumName: 'OrganisationStatus' })
  @IsOptional()
  @IsIn(ORGANISATION_STATUSES, {
    message: `status must be one of: ${ORGANISATION_STATUSES.join(', ')}`,
  })
  status?: OrganisationStatus;

  @ApiPropertyOptional({ enum: ORGANISATION_KINDS, enumName: 'OrganisationKind' })
  @IsOptional()
  @IsIn(ORGANISATION_KINDS, { message: OM.kindInvalid })
  kind?: OrganisationKind;

  @ApiPropertyOptional({
    description: 'Part of the name, or the start of the KRA PIN',
    maxLength: 100,
  })
  @trim
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;
}

export class ContactViewDto {
  @ApiProperty({ example: 'Grace Wambui' })
  name!: string;
  @ApiProperty({ example: '0712345678', description: "'' once its person was erased" })
  phone!: string;
  @ApiProperty({
    example: 'procurement@kiambu.go.ke',
    description: "'' once its person was erased",
  })
  email!: string;
}

export class OrganisationPersonDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  accountId!: string;
  @ApiProperty({ example: 'Grace Wambui' })
  fullName!: string;
  @ApiProperty({ example: 'grace@example.co.ke' })
  email!: string;
  @ApiProperty({ enum: ORGANISATION_ROLES, enumName: 'OrganisationRole' })
  role!: OrganisationRole;
  @ApiProperty({ format: 'date-time' })
  joinedAt!: string;
}

export class OrganisationInvitationDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'peter@example.co.ke', description: 'As the inviter typed it' })
  email!: string;
  @ApiProperty({ enum: ORGANISATION_ROLES, enumName: 'OrganisationRole' })
  role!: OrganisationRole;
  @ApiProperty({ format: 'date-time' })
  invitedAt!: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

export class PriceListEntryViewDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  productId!: string;
  @ApiProperty({ example: '665f1c2b9d3e4a0012345679' })
  unitId!: string;
  @ApiProperty({ example: 1200, description: 'Whole KES for one unit' })
  price!: number;
  @ApiProperty({ type: String, nullable: true, description: 'null: the product is no longer sold' })
  productName!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null: the unit is no longer sold' })
  unitName!: string | null;
}

export class PriceListViewDto {
  @ApiProperty({ example: 10, description: "Whole percent off the shop's price elsewhere" })
  discountPercent!: number;
  @ApiProperty({ type: [PriceListEntryViewDto] })
  prices!: PriceListEntryViewDto[];
}

export class OrganisationViewDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'Kiambu County Government' })
  name!: string;
  @ApiProperty({ example: KRA_PIN_EXAMPLE })
  kraPin!: string;
  @ApiProperty({ enum: ORGANISATION_KINDS, enumName: 'OrganisationKind' })
  kind!: OrganisationKind;
  @ApiProperty({ enum: ORGANISATION_STATUSES, enumName: 'OrganisationStatus' })
  status!: OrganisationStatus;
  @ApiProperty({ description: "The shop's words when it suspended or declined it; '' otherwise" })
  statusReason!: string;
  @ApiProperty({ type: ContactViewDto })
  billingContact!: ContactViewDto;
  @ApiProperty({ type: ContactViewDto })
  deliveryContact!: ContactViewDto;
  @ApiProperty({ type: OrganisationTermsViewDto })
  terms!: OrganisationTermsViewDto;
  @ApiProperty({ type: PriceListViewDto })
  priceList!: PriceListViewDto;
  @ApiProperty({ type: [OrganisationPersonDto] })
  people!: OrganisationPersonDto[];
  @ApiProperty({
    type: [OrganisationInvitationDto],
    description: 'Waiting invitations: for its approvers and the shop (empty for a buyer)',
  })
  invitations!: OrganisationInvitationDto[];
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class OrganisationData {
  @ApiProperty({ type: OrganisationViewDto })
  organisation!: OrganisationViewDto;
}
export class OrganisationResponseDto extends Envelope(OrganisationData) {}

export class MyOrganisationData {
  @ApiProperty({ type: OrganisationViewDto, nullable: true })
  organisation!: OrganisationViewDto | null;
  @ApiProperty({ enum: ORGANISATION_ROLES, enumName: 'OrganisationRole', nullable: true })
  role!: OrganisationRole | null;
}
export class MyOrganisationResponseDto extends Envelope(MyOrganisationData) {}

export class OrganisationSummaryDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'Kiambu County Government' })
  name!: string;
  @ApiProperty({ example: KRA_PIN_EXAMPLE })
  kraPin!: string;
  @ApiProperty({ enum: ORGANISATION_KINDS, enumName: 'OrganisationKind' })
  kind!: OrganisationKind;
  @ApiProperty({ enum: ORGANISATION_STATUSES, enumName: 'OrganisationStatus' })
  status!: OrganisationStatus;
  @ApiProperty({ example: 3, description: 'How many people buy for it' })
  people!: number;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class OrganisationListData {
  @ApiProperty({ type: [OrganisationSummaryDto] })
  organisations!: OrganisationSummaryDto[];
  @ApiProperty({ example: 12 })
  totalOrganisations!: number;
  @ApiProperty({ example: 2 })
  totalPages!: number;
  @ApiProperty({ example: 1 })
  page!: number;
}
export class OrganisationListResponseDto extends Envelope(OrganisationListData) {}
