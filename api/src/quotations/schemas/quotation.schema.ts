import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, type Types } from 'mongoose';

/** What is stored: `expired` is derived (a `sent` one past its validity); `accepting` is a claim. */
export const STORED_QUOTATION_STATUSES = [
  'requested',
  'sent',
  'accepting',
  'accepted',
  'declined',
  'withdrawn',
] as const;
export type StoredQuotationStatus = (typeof STORED_QUOTATION_STATUSES)[number];

@Schema({ _id: false, versionKey: false })
export class StoredDelivery {
  @Prop({ required: true })
  siteName!: string;
  @Prop({ required: true })
  county!: string;
  @Prop({ type: String, default: null })
  subCounty!: string | null;
  @Prop({ required: true })
  streetAddress!: string;
  /** YYYY-MM-DD, the shop's day. */
  @Prop({ required: true })
  date!: string;
}
const DeliverySchema = SchemaFactory.createForClass(StoredDelivery);

@Schema({ _id: false, versionKey: false })
export class StoredRequestLine {
  @Prop({ required: true })
  productId!: string;
  @Prop({ required: true })
  unitId!: string;
  @Prop({ required: true })
  quantity!: number;
  @Prop({ type: String, default: null })
  batchId!: string | null;
}
const RequestLineSchema = SchemaFactory.createForClass(StoredRequestLine);

@Schema({ _id: false, versionKey: false })
export class StoredLine {
  @Prop({ required: true })
  productId!: string;
  @Prop({ required: true })
  unitId!: string;
  @Prop({ required: true })
  productName!: string;
  @Prop({ required: true })
  unitName!: string;
  @Prop({ required: true })
  seedlings!: number;
  @Prop({ required: true })
  quantity!: number;
  @Prop({ type: String, default: null })
  batchId!: string | null;
  @Prop({ type: String, default: null })
  readyDate!: string | null;
  @Prop({ required: true })
  shopUnitPrice!: number;
  @Prop({ required: true })
  unitPrice!: number;
}
const LineSchema = SchemaFactory.createForClass(StoredLine);

/** A version (0: the staff's draft). */
@Schema({ _id: false, versionKey: false })
export class StoredVersion {
  @Prop({ required: true })
  version!: number;
  @Prop({ type: [LineSchema], default: [] })
  lines!: StoredLine[];
  @Prop({ type: DeliverySchema, default: null })
  delivery!: StoredDelivery | null;
  @Prop({ required: true, default: 0 })
  deliveryFee!: number;
  @Prop({ required: true })
  validUntil!: string;
  @Prop({ default: '' })
  note!: string;
  @Prop({ type: Date, default: null })
  sentAt!: Date | null;
  /** The clerk's name (staff names are not customer data). */
  @Prop({ type: String, default: null })
  sentBy!: string | null;
}
const VersionSchema = SchemaFactory.createForClass(StoredVersion);

@Schema({ versionKey: false })
export class StoredMessage {
  _id!: Types.ObjectId;
  @Prop({ type: String, required: true, enum: ['organisation', 'shop'] })
  from!: 'organisation' | 'shop';
  /** The author's account (null once a customer's is erased). */
  @Prop({ type: String, default: null })
  authorId!: string | null;
  @Prop({ required: true })
  authorName!: string;
  @Prop({ required: true })
  text!: string;
  @Prop({ required: true })
  at!: Date;
}
const MessageSchema = SchemaFactory.createForClass(StoredMessage);

/** Who accepts, and with what: kept on the claim so a crash's claim can be finished. */
@Schema({ _id: false, versionKey: false })
export class StoredAcceptance {
  @Prop({ required: true })
  version!: number;
  @Prop({ required: true })
  lpoNumber!: string;
  /** The LPO number upper-cased, blanks removed: unique within the organisation. */
  @Prop({ required: true })
  lpoKey!: string;
  @Prop({ required: true })
  acceptedAt!: Date;
  @Prop({ type: String, default: null })
  acceptedById!: string | null;
  @Prop({ required: true })
  acceptedByName!: string;
  /** The acceptor's role (customer, staff, admin): the orders are asked as them. */
  @Prop({ required: true })
  acceptedByRole!: string;
  @Prop({ required: true })
  byShop!: boolean;
  /** The organisation's terms let it order on account, as they stood when it was accepted. */
  @Prop({ type: Boolean, default: false })
  onAccount!: boolean;
  @Prop({ type: String, default: null })
  orderId!: string | null;
  @Prop({ type: String, default: null })
  purchaseNumber!: string | null;
}
const AcceptanceSchema = SchemaFactory.createForClass(StoredAcceptance);

/**
 * A quotation (issue 42): the request as made, the staff's draft, the versions sent, the thread
 * and the acceptance. One document, so that every step is one conditional update of it: two
 * accepts at once cannot both claim it (`status: sent → accepting`).
 */
@Schema({ collection: 'quotations', timestamps: true, versionKey: false })
export class Quotation {
  /** `QUO-000123`, from the `quotation_counters` sequence. */
  @Prop({ required: true })
  number!: string;
  @Prop({ required: true })
  organisationId!: string;
  /** As it was named when the request was made (the list's search reads it). */
  @Prop({ required: true })
  organisationName!: string;
  @Prop({ type: String, required: true, enum: STORED_QUOTATION_STATUSES })
  status!: StoredQuotationStatus;
  /** The latest version's validity (YYYY-MM-DD), null before one is sent: `expired` reads it. */
  @Prop({ type: String, default: null })
  validUntil!: string | null;
  @Prop({ type: [RequestLineSchema], default: [] })
  requestLines!: StoredRequestLine[];
  @Prop({ default: '' })
  requestNote!: string;
  @Prop({ type: DeliverySchema, default: null })
  requestDelivery!: StoredDelivery | null;
  /** The account that asked (a customer, or the clerk who wrote it from a call); null once erased. */
  @Prop({ type: String, default: null })
  requestedById!: string | null;
  @Prop({ required: true })
  requestedByName!: string;
  @Prop({ required: true })
  requestedByShop!: boolean;
  @Prop({ type: VersionSchema, default: null })
  draft!: StoredVersion | null;
  @Prop({ type: [VersionSchema], default: [] })
  versions!: StoredVersion[];
  @Prop({ type: [MessageSchema], default: [] })
  messages!: StoredMessage[];
  /** While `accepting`: the claim (orderId null); once accepted: the acceptance. */
  @Prop({ type: AcceptanceSchema, default: null })
  acceptance!: StoredAcceptance | null;
  /** The shop's or the organisation's reason when it was withdrawn or declined. */
  @Prop({ default: '' })
  statusReason!: string;
  createdAt!: Date;
  updatedAt!: Date;
}

export const QuotationSchema = SchemaFactory.createForClass(Quotation);
QuotationSchema.index({ number: 1 }, { unique: true });
QuotationSchema.index({ organisationId: 1, updatedAt: -1, _id: -1 });
QuotationSchema.index({ status: 1, updatedAt: -1, _id: -1 });
QuotationSchema.index({ updatedAt: -1, _id: -1 });
// An LPO number once per organisation among accepted (and accepting) quotations.
QuotationSchema.index(
  { organisationId: 1, 'acceptance.lpoKey': 1 },
  { unique: true, partialFilterExpression: { 'acceptance.lpoKey': { $exists: true } } },
);
// Erasure finds a person's requests and messages.
QuotationSchema.index({ requestedById: 1 }, { sparse: true });
QuotationSchema.index({ 'messages.authorId': 1 }, { sparse: true });

/** One counter document per sequence: `{ _id: 'quotations', seq }`. */
@Schema({ collection: 'quotation_counters', versionKey: false })
export class QuotationCounter {
  @Prop({ type: MongooseSchema.Types.Mixed, required: true })
  _id!: string;
  @Prop({ required: true, default: 0 })
  seq!: number;
}
export const QuotationCounterSchema = SchemaFactory.createForClass(QuotationCounter);
