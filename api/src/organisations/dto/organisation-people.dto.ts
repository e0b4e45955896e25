import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import {
  ORGANISATION_KINDS,
  ORGANISATION_MESSAGES as OM,
  ORGANISATION_ROLES,
  type OrganisationKind,
  type OrganisationRole,
} from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { EmailField } from '../../common/validation-decorators';
import { OrganisationInvitationDto, OrganisationViewDto } from './organisation.dto';

const RoleField = () =>
  applyDecorators(
    ApiProperty({ enum: ORGANISATION_ROLES, enumName: 'OrganisationRole' }),
    IsIn(ORGANISATION_ROLES, { message: OM.roleInvalid }),
  );

/** `POST /api/organisations/:id/invitations`: a person, by the e-mail of their customer account. */
export class InviteDto {
  @EmailField()
  email!: string;

  @RoleField()
  role!: OrganisationRole;
}

/**
 * `POST /api/organisation-invitations/:id/accept` and `…/decline`: the code of the e-mail's link
 * (organisation-invitation-codes.ts), proof that the account's owner read the invitation.
 */
export class AnswerInvitationDto {
  @ApiProperty({ description: 'The `code` of the invitation e-mail’s link', example: 'q3Jx…' })
  @IsString({ message: OM.invitationCode })
  @Length(1, 100, { message: OM.invitationCode })
  code!: string;
}

/** `PATCH /api/organisations/:id/people/:accountId`. */
export class ChangeRoleDto {
  @RoleField()
  role!: OrganisationRole;
}

export class InvitationData {
  @ApiProperty({ type: OrganisationInvitationDto })
  invitation!: OrganisationInvitationDto;
}
export class InvitationResponseDto extends Envelope(InvitationData) {}

export class InvitingOrganisationDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'Kiambu County Government' })
  name!: string;
  @ApiProperty({ enum: ORGANISATION_KINDS, enumName: 'OrganisationKind' })
  kind!: OrganisationKind;
}

/** An invitation as the person invited sees it. */
export class MyInvitationDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ type: InvitingOrganisationDto })
  organisation!: InvitingOrganisationDto;
  @ApiProperty({ enum: ORGANISATION_ROLES, enumName: 'OrganisationRole' })
  role!: OrganisationRole;
  @ApiProperty({ format: 'date-time' })
  invitedAt!: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

export class MyInvitationsData {
  @ApiProperty({ type: [MyInvitationDto] })
  invitations!: MyInvitationDto[];
}
export class MyInvitationsResponseDto extends Envelope(MyInvitationsData) {}

export class PersonRemovedData {
  @ApiProperty({
    type: OrganisationViewDto,
    nullable: true,
    description: 'The organisation as the caller now sees it; null when they left it',
  })
  organisation!: OrganisationViewDto | null;
}
export class PersonRemovedResponseDto extends Envelope(PersonRemovedData) {}
