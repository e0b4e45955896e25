import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ROLES } from '@spc/shared-contracts';
import { PageQueryDto } from '../../common/pagination';

export class AuditActorDto {
  @ApiProperty()
  id!: string;
  @ApiProperty({ example: 'Jane Admin' })
  fullName!: string;
  @ApiProperty({ enum: ROLES })
  role!: string;
}

export class AuditTargetDto {
  @ApiProperty({ example: 'staff' })
  type!: string;
  @ApiProperty()
  id!: string;
  @ApiPropertyOptional({ example: 'peter@example.co.ke' })
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

export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only entries with this action, e.g. auth.login' })
  @IsOptional()
  @IsString()
  @MaxLength(60)
  action?: string;
}
