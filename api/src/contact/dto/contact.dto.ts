import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { CONTACT_LIMITS as L, CONTACT_MESSAGES as M } from '@spc/shared-contracts';
import { Envelope } from '../../common/answer';
import { PageQueryDto } from '../../common/pagination';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** `POST /api/contact`: the contact page's form. */
export class ContactMessageDto {
  @ApiProperty({ example: 'Wanjiku Kamau', maxLength: L.name })
  @trim
  @IsNotEmpty({ message: M.nameRequired })
  @IsString({ message: M.nameRequired })
  @MaxLength(L.name, { message: M.tooLong('name', L.name) })
  name!: string;

  @ApiProperty({ example: 'wanjiku@example.co.ke', maxLength: L.email })
  @trim
  @IsNotEmpty({ message: M.emailRequired })
  @MaxLength(L.email, { message: M.emailInvalid })
  @IsEmail({}, { message: M.emailInvalid })
  email!: string;

  @ApiProperty({ example: 'Avocado seedlings for 2 acres', maxLength: L.subject })
  @trim
  @IsNotEmpty({ message: M.subjectRequired })
  @IsString({ message: M.subjectRequired })
  @MaxLength(L.subject, { message: M.tooLong('subject', L.subject) })
  subject!: string;

  @ApiProperty({ example: 'Do you deliver 400 Hass seedlings to Murang’a?', maxLength: L.message })
  @trim
  @IsNotEmpty({ message: M.messageRequired })
  @IsString({ message: M.messageRequired })
  @MaxLength(L.message, { message: M.tooLong('message', L.message) })
  message!: string;
}

/** A contact-form message as the back office sees it. */
export class ContactMessageViewDto {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
  @ApiProperty({ example: 'Wanjiku Kamau' })
  name!: string;
  @ApiProperty({ example: 'wanjiku@example.co.ke' })
  email!: string;
  @ApiProperty()
  subject!: string;
  @ApiProperty()
  message!: string;
  @ApiProperty({ description: 'True once someone in the shop marked it read' })
  read!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  readAt!: string | null;
  @ApiProperty({ description: 'Who marked it read', nullable: true, type: String })
  readByName!: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class ContactMessageData {
  @ApiProperty({ type: ContactMessageViewDto })
  contactMessage!: ContactMessageViewDto;
}
export class ContactMessageResponseDto extends Envelope(ContactMessageData) {}

export class ContactSentData {
  @ApiProperty({ example: '665f1c2b9d3e4a0012345678' })
  _id!: string;
}
export class ContactSentResponseDto extends Envelope(ContactSentData) {}

export class ContactMessageListData {
  @ApiProperty({ type: [ContactMessageViewDto] })
  messages!: ContactMessageViewDto[];
  @ApiProperty({ example: 42 })
  totalMessages!: number;
  @ApiProperty({ example: 3, description: 'Unread messages, whatever the filter' })
  unread!: number;
  @ApiProperty({ example: 3 })
  totalPages!: number;
  @ApiProperty({ example: 1 })
  page!: number;
}
export class ContactMessageListResponseDto extends Envelope(ContactMessageListData) {}

export class ContactMessageListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['all', 'unread', 'read'], default: 'all' })
  @IsOptional()
  @IsIn(['all', 'unread', 'read'], { message: 'status must be all, unread or read' })
  status?: 'all' | 'unread' | 'read';
}

/** `PATCH /api/contact-messages/:id/read`. */
export class MarkReadDto {
  @ApiProperty({ description: 'true marks the message read, false unread again' })
  @IsBoolean({ message: 'read must be true or false' })
  read!: boolean;
}

export class ShopContactsDto {
  @ApiProperty({ example: '+254 712 345 678' })
  phone!: string;
  @ApiProperty({ example: '254712345678', description: 'International form, digits only' })
  whatsapp!: string;
  @ApiProperty({ example: 'hello@seedlings.co.ke' })
  email!: string;
}
export class ShopContactsData {
  @ApiProperty({ type: ShopContactsDto })
  contacts!: ShopContactsDto;
}
export class ShopContactsResponseDto extends Envelope(ShopContactsData) {}
