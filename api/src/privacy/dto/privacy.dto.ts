import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { LIMITS } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { PasswordField, PhoneField, PurchaseNumberField } from '../../common/validation-decorators';

export class RetentionPeriodsDto {
  @ApiProperty({ example: 5, description: 'Orders, payments, refunds, stock ledger (years)' })
  taxRetentionYears!: number;
  @ApiProperty({ example: 180, description: 'Order text messages (days)' })
  smsOutboxDays!: number;
  @ApiProperty({ example: 180, description: 'E-mails sent (days)' })
  mailLogDays!: number;
  @ApiProperty({ example: 365, description: 'Contact-form messages (days)' })
  contactMessageDays!: number;
  @ApiProperty({ example: 7, description: "Days to answer a guest's data request" })
  requestDueDays!: number;
}

export class DataControllerDto {
  @ApiProperty({ example: 'Seedling Propagation Centre' })
  name!: string;
  @ApiProperty({ example: '0712345678' })
  phone!: string;
  @ApiProperty({ example: '0712345678' })
  whatsapp!: string;
  @ApiProperty({ example: 'shop@example.co.ke' })
  email!: string;
}

export class PrivacyNoticeDto {
  @ApiProperty({ description: 'The notice (Markdown: headings, lists, bold), periods filled in' })
  text!: string;
  @ApiProperty({ type: DataControllerDto })
  controller!: DataControllerDto;
  @ApiProperty({ type: RetentionPeriodsDto })
  retention!: RetentionPeriodsDto;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  updatedAt!: string | null;
}

export class PrivacyNoticeData {
  @ApiProperty({ type: PrivacyNoticeDto })
  notice!: PrivacyNoticeDto;
}
export class PrivacyNoticeResponseDto extends Envelope(PrivacyNoticeData) {}

export class PrivacySettingsDto extends RetentionPeriodsDto {
  @ApiProperty({ example: 'Seedling Propagation Centre' })
  controllerName!: string;
  @ApiProperty({ description: 'The notice as edited; {taxRetentionYears} etc. are filled in' })
  noticeText!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  updatedAt!: string | null;
}

export class PrivacySettingsData {
  @ApiProperty({ type: PrivacySettingsDto })
  settings!: PrivacySettingsDto;
}
export class PrivacySettingsResponseDto extends Envelope(PrivacySettingsData) {}

function Days(max: number, label: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max }),
    IsOptional(),
    IsInt({ message: `${label} must be a whole number` }),
    Min(1, { message: `${label} must be at least 1` }),
    Max(max, { message: `${label} must be at most ${max}` }),
  );
}

/** `PUT /api/admin/privacy/settings`: what is left out stays as it is. */
export class UpdatePrivacySettingsDto {
  @ApiPropertyOptional({ maxLength: 120, example: 'Seedling Propagation Centre' })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: "The shop's name cannot be empty" })
  @MaxLength(120, { message: "The shop's name must be at most 120 characters" })
  controllerName?: string;

  @ApiPropertyOptional({ maxLength: 20000 })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'The notice cannot be empty' })
  @MaxLength(20000, { message: 'The notice must be at most 20000 characters' })
  noticeText?: string;

  /** Five years at least: the Tax Procedures Act, 2015, s. 23. */
  @ApiPropertyOptional({ type: 'integer', minimum: 5, maximum: 30 })
  @IsOptional()
  @IsInt({ message: 'Tax retention must be a whole number of years' })
  @Min(5, { message: 'Tax records must be kept at least 5 years (Tax Procedures Act, s. 23)' })
  @Max(30, { message: 'Tax retention must be at most 30 years' })
  taxRetentionYears?: number;

  @Days(3650, 'SMS retention')
  smsOutboxDays?: number;

  @Days(3650, 'E-mail retention')
  mailLogDays?: number;

  @Days(3650, 'Contact message retention')
  contactMessageDays?: number;

  @Days(30, 'The days to answer a request')
  requestDueDays?: number;
}

export class DeleteAccountDto {
  @PasswordField()
  password!: string;
}

export class ConsentEventDto {
  @ApiProperty()
  granted!: boolean;
  @ApiProperty({ format: 'date-time' })
  at!: string;
  @ApiProperty({ enum: ['profile', 'sms-stop'] })
  source!: string;
}

export class MarketingConsentDto {
  @ApiProperty({ description: 'Offers by text message wanted (off unless turned on)' })
  granted!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  at!: string | null;
  @ApiProperty({ enum: ['profile', 'sms-stop'], nullable: true, type: String })
  source!: string | null;
  @ApiProperty({ type: [ConsentEventDto] })
  history!: ConsentEventDto[];
}

export class ConsentData {
  @ApiProperty({ type: MarketingConsentDto })
  marketingSms!: MarketingConsentDto;
}
export class ConsentResponseDto extends Envelope(ConsentData) {}

export class UpdateConsentDto {
  @ApiProperty({ description: 'true: offers by text message wanted; false: withdrawn' })
  @IsBoolean({ message: 'marketingSms must be true or false' })
  marketingSms!: boolean;
}

/** Africa's Talking's incoming message callback (form fields). */
export class InboundSmsDto {
  @ApiProperty({ example: '+254712345678' })
  @IsString()
  @IsNotEmpty({ message: 'from is required' })
  @Matches(/\S/, { message: 'from is required' })
  @MaxLength(20)
  from!: string;

  /** A blank reply is taken and ignored (the gateway passes on whatever was sent). */
  @ApiPropertyOptional({ example: 'STOP' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  text?: string;

  @ApiPropertyOptional({ example: '20880' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  to?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(40)
  date?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  linkId?: string;
}

export class InboundSmsData {
  @ApiProperty({
    description: 'Always true: the same answer whoever sent the reply and whatever it said',
    example: true,
  })
  received!: boolean;
}
export class InboundSmsResponseDto extends Envelope(InboundSmsData) {}

export class CreateDataRequestDto {
  @PurchaseNumberField('The purchase number of one of your orders')
  purchaseNumber!: string;

  @PhoneField(LIMITS.checkoutPhoneMaxLength)
  phoneNumber!: string;

  @ApiProperty({ enum: ['export', 'erasure'], description: 'A copy of your data, or its erasure' })
  @IsIn(['export', 'erasure'], { message: 'kind must be export or erasure' })
  kind!: 'export' | 'erasure';
}

export class DataRequestCreatedData {
  @ApiProperty({ format: 'uuid' })
  requestId!: string;
  @ApiProperty({ format: 'date-time' })
  codeExpiresAt!: string;
}
export class DataRequestCreatedResponseDto extends Envelope(DataRequestCreatedData) {}

export class ConfirmDataRequestDto {
  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(/^\s*\d{6}\s*$/, { message: 'The code is the 6 digits sent by SMS' })
  code!: string;
}

export class DataRequestDto {
  @ApiProperty({ format: 'uuid' })
  _id!: string;
  @ApiProperty({ enum: ['export', 'erasure'] })
  kind!: string;
  @ApiProperty({ example: 'SPD7K3MX9QA' })
  purchaseNumber!: string;
  @ApiProperty({ example: '+254712345678', description: 'Empty once erased' })
  phone!: string;
  @ApiProperty({ enum: ['unconfirmed', 'open', 'answered'] })
  status!: string;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  confirmedAt!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  dueAt!: string | null;
  @ApiProperty()
  overdue!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  answeredAt!: string | null;
  @ApiProperty({ enum: ['export', 'anonymised'], nullable: true, type: String })
  answer!: string | null;
  @ApiProperty({ nullable: true, type: String })
  answeredBy!: string | null;
}

export class DataRequestData {
  @ApiProperty({ type: DataRequestDto })
  request!: DataRequestDto;
}
export class DataRequestResponseDto extends Envelope(DataRequestData) {}

export class DataRequestListData {
  @ApiProperty({ type: [DataRequestDto] })
  requests!: DataRequestDto[];
}
export class DataRequestListResponseDto extends Envelope(DataRequestListData) {}
