import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AGEING_LABELS,
  type AgeingBucket,
  type StatementLine,
  type StatementLineKind,
  type StatementView,
} from '@spc/shared-contracts';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { Envelope } from '../../common/answer';
import { STATEMENT_FORMATS, STATEMENT_MESSAGES, type StatementFormat } from '../invoice-statements';

export class StatementQueryDto {
  @ApiPropertyOptional({
    example: '2026-11-01',
    description: "First day (Africa/Nairobi), included; the first day of `to`'s month if left out",
  })
  @IsOptional()
  @IsString({ message: STATEMENT_MESSAGES.fromInvalid })
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Last day (Africa/Nairobi), included, not after today; today if left out',
  })
  @IsOptional()
  @IsString({ message: STATEMENT_MESSAGES.toInvalid })
  to?: string;

  @ApiPropertyOptional({ enum: STATEMENT_FORMATS, default: 'json' })
  @IsOptional()
  @IsIn(STATEMENT_FORMATS, { message: STATEMENT_MESSAGES.format })
  format?: StatementFormat;
}

const LINE_KINDS: StatementLineKind[] = ['invoice', 'paybill', 'bank', 'withholding', 'creditNote'];

export class StatementPartyDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() kraPin!: string;
}

export class StatementShopDto {
  @ApiProperty() name!: string;
  @ApiProperty({ description: "The shop's KRA PIN (SHOP_KRA_PIN; '' when not set)" })
  kraPin!: string;
}

export class StatementLineDto implements StatementLine {
  @ApiProperty({ example: '2026-11-03', description: "The shop's day" }) date!: string;
  @ApiProperty({ enum: LINE_KINDS }) kind!: StatementLineKind;
  @ApiProperty({
    description:
      "The invoice's or credit note's number; the M-Pesa code, bank reference or certificate",
  })
  reference!: string;
  @ApiProperty({ example: 'INV-000001' }) invoiceNumber!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'KES it adds to what is owed (an invoice)' }) debit!: number;
  @ApiProperty({ description: 'KES it takes off (a payment, tax withheld, a credit note)' })
  credit!: number;
  @ApiProperty({ description: 'KES owed after it' }) balance!: number;
}

export class StatementAgeingDto implements Record<AgeingBucket, number> {
  @ApiProperty({ description: AGEING_LABELS.current }) current!: number;
  @ApiProperty({ description: AGEING_LABELS.days30 }) days30!: number;
  @ApiProperty({ description: AGEING_LABELS.days60 }) days60!: number;
  @ApiProperty({ description: AGEING_LABELS.days90 }) days90!: number;
  @ApiProperty({ description: AGEING_LABELS.over90 }) over90!: number;
}

export class StatementData implements StatementView {
  @ApiProperty({ type: StatementPartyDto }) organisation!: StatementPartyDto;
  @ApiProperty({ type: StatementShopDto }) shop!: StatementShopDto;
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-30' }) to!: string;
  @ApiProperty({ description: 'KES owed before `from`' }) openingBalance!: number;
  @ApiProperty({ type: [StatementLineDto] }) lines!: StatementLineDto[];
  @ApiProperty({ description: 'KES owed at the end of `to`' }) closingBalance!: number;
  @ApiProperty({ type: StatementAgeingDto, description: 'KES owed at `to`, by days past due' })
  ageing!: StatementAgeingDto;
  @ApiProperty({ description: 'KES of the closing balance past due' }) overdue!: number;
  @ApiProperty({
    description: "KES paid in excess and not given back, in the organisation's favour",
  })
  excess!: number;
}

export class StatementResponseDto extends Envelope(StatementData) {}
