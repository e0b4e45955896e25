import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ACTOR_KINDS, ROLES, type Role } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { IsCalendarDay } from '../../common/calendar-day';
import { PageQueryDto } from '../../common/pagination';

export class AuditActorDto {
  @ApiProperty()
  id!: string;
  @ApiProperty({ example: 'Jane Admin' })
  fullName!: string;
  @ApiProperty({ enum: ACTOR_KINDS })
  role!: string;
}

export class AuditTargetDto {
  @ApiProperty({ example: 'staff' })
  type!: string;
  @ApiProperty()
  id!: string;
  @ApiPropertyOptional({ example: 'Peter Mwangi' })
  label?: string;
}

export class AuditLogDto {
  @ApiProperty()
  _id!: string;

  @ApiProperty({ example: 'staff.create' })
  action!: string;

  @ApiProperty({ example: 'Jane Admin created staff member Peter Mwangi (peter@example.co.ke)' })
  message!: string;

  @ApiProperty({ type: AuditActorDto })
  @Type(() => AuditActorDto)
  performedBy!: AuditActorDto;

  @ApiProperty({ description: 'Id of the user who performed the action' })
  user!: string;

  @ApiPropertyOptional({ type: AuditTargetDto, description: 'The record the action changed' })
  target?: AuditTargetDto;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;
}

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TRUE_OR_FALSE = ['true', 'false'] as const;

/**
 * What the audit trail can be narrowed to; every filter is optional and they combine. Days are the
 * shop's calendar days (Africa/Nairobi), both ends included.
 */
export class AuditFilterDto {
  @ApiPropertyOptional({ description: 'Only entries with this action, e.g. auth.login' })
  @IsOptional()
  @IsString()
  @MaxLength(60, { message: 'action must be at most 60 characters' })
  action?: string;

  @ApiPropertyOptional({ description: 'Only entries by this person (the id in performedBy.id)' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'user must be the id of a person' })
  user?: string;

  @ApiPropertyOptional({ enum: ROLES, description: 'Only entries by people of this role' })
  @IsOptional()
  @IsIn(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` })
  role?: Role;

  @ApiPropertyOptional({
    example: '2026-11-01',
    description: 'First day (Africa/Nairobi), inclusive',
  })
  @IsOptional()
  @Matches(DAY, { message: 'from must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'from must be a real day between 2000-01-01 and 2099-12-31' })
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Last day (Africa/Nairobi), inclusive',
  })
  @IsOptional()
  @Matches(DAY, { message: 'to must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'to must be a real day between 2000-01-01 and 2099-12-31' })
  to?: string;

  @ApiPropertyOptional({
    enum: TRUE_OR_FALSE,
    default: 'false',
    description: "true leaves out customers' sign-ins (staff and admin sign-ins stay)",
  })
  @IsOptional()
  @IsIn(TRUE_OR_FALSE, { message: 'hideCustomerSignIns must be true or false' })
  hideCustomerSignIns?: 'true' | 'false';
}

export class AuditQueryDto extends IntersectionType(AuditFilterDto, PageQueryDto) {}

export class AuditPersonDto {
  @ApiProperty()
  id!: string;
  @ApiProperty({ example: 'Peter Mwangi' })
  fullName!: string;
  @ApiProperty({ enum: ACTOR_KINDS })
  role!: string;
}

export class AuditFilterOptionsData {
  @ApiProperty({
    type: [AuditPersonDto],
    description: 'Admins and staff found in the trail (customers are reached through the role)',
  })
  people!: AuditPersonDto[];

  @ApiProperty({ type: [String], description: 'Every action code found in the trail' })
  actions!: string[];
}

export class AuditFilterOptionsDto extends Envelope(AuditFilterOptionsData) {}
