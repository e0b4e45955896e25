import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import {
  DEFAULT_ORGANISATION_TERMS,
  INVOICING_MODES,
  ORGANISATION_KINDS,
  ORGANISATION_ROLES,
  ORGANISATION_STATUSES,
  type InvoicingMode,
  type OrganisationKind,
  type OrganisationRole,
  type OrganisationStatus,
} from '@spc/shared-contracts';

/** Someone the shop writes to about the organisation's bills or deliveries. */
@Schema({ _id: false, versionKey: false })
export class ContactPerson {
  @Prop({ required: true })
  name!: string;
  /** As typed, trimmed ('' once its person is erased). */
  @Prop({ default: '' })
  phone!: string;
  /** The phone in E.164 (`+2547…`), however it was typed: how an erasure finds it. */
  @Prop({ default: '' })
  phoneKey!: string;
  /** Trimmed, lower case ('' once its person is erased). */
  @Prop({ default: '' })
  email!: string;
}
const ContactPersonSchema = SchemaFactory.createForClass(ContactPerson);

/** A customer account buying for the organisation. No name or address: those stay on the account. */
@Schema({ _id: false, versionKey: false })
export class Member {
  @Prop({ required: true })
  accountId!: string;
  @Prop({ type: String, required: true, enum: ORGANISATION_ROLES })
  role!: OrganisationRole;
  @Prop({ required: true })
  joinedAt!: Date;
}
const MemberSchema = SchemaFactory.createForClass(Member);

@Schema({ _id: false, versionKey: false })
export class Terms {
  @Prop({ required: true, default: DEFAULT_ORGANISATION_TERMS.paymentDays })
  paymentDays!: number;
  /** Whole KES. */
  @Prop({ required: true, default: DEFAULT_ORGANISATION_TERMS.creditLimit })
  creditLimit!: number;
  @Prop({ required: true, default: DEFAULT_ORGANISATION_TERMS.onAccount })
  onAccount!: boolean;
  /** Per tranche delivered or once for the whole order (issue 44); absent on older documents. */
  @Prop({ type: String, enum: INVOICING_MODES, default: DEFAULT_ORGANISATION_TERMS.invoicing })
  invoicing!: InvoicingMode;
}
const TermsSchema = SchemaFactory.createForClass(Terms);

@Schema({ _id: false, versionKey: false })
export class PriceListPrice {
  @Prop({ required: true })
  productId!: string;
  @Prop({ required: true })
  unitId!: string;
  /** Whole KES for one unit. */
  @Prop({ required: true })
  price!: number;
}
const PriceListPriceSchema = SchemaFactory.createForClass(PriceListPrice);

@Schema({ _id: false, versionKey: false })
export class OrganisationPriceList {
  /** Whole percent off the shop's price for what `prices` does not name. */
  @Prop({ required: true, default: 0 })
  discountPercent!: number;
  @Prop({ type: [PriceListPriceSchema], default: [] })
  prices!: PriceListPrice[];
}
const PriceListSchema = SchemaFactory.createForClass(OrganisationPriceList);

/**
 * A business account (issue 42). Its people are kept inside it, so that a change to them and the
 * rule "at least one approver" are one atomic update of one document; a unique index on their
 * accounts keeps a customer in one organisation at most.
 */
@Schema({ collection: 'organisations', timestamps: true, versionKey: false })
export class Organisation {
  @Prop({ required: true })
  name!: string;
  /** Upper case, unique. */
  @Prop({ required: true })
  kraPin!: string;
  @Prop({ type: String, required: true, enum: ORGANISATION_KINDS })
  kind!: OrganisationKind;
  @Prop({ type: String, required: true, enum: ORGANISATION_STATUSES })
  status!: OrganisationStatus;
  /** The shop's words when it suspended or declined it. */
  @Prop({ default: '' })
  statusReason!: string;
  @Prop({ type: ContactPersonSchema, required: true })
  billingContact!: ContactPerson;
  @Prop({ type: ContactPersonSchema, required: true })
  deliveryContact!: ContactPerson;
  @Prop({ type: TermsSchema, default: () => ({ ...DEFAULT_ORGANISATION_TERMS }) })
  terms!: Terms;
  @Prop({ type: PriceListSchema, default: () => ({ discountPercent: 0, prices: [] }) })
  priceList!: OrganisationPriceList;
  @Prop({ type: [MemberSchema], default: [] })
  members!: Member[];
  createdAt!: Date;
  updatedAt!: Date;
}

export const OrganisationSchema = SchemaFactory.createForClass(Organisation);
OrganisationSchema.index({ kraPin: 1 }, { unique: true });
// One organisation per customer account; organisations without people are not indexed (an empty
// list would count as one value).
OrganisationSchema.index(
  { 'members.accountId': 1 },
  { unique: true, partialFilterExpression: { 'members.accountId': { $exists: true } } },
);
// The back office's list: newest first, optionally of one status.
OrganisationSchema.index({ status: 1, createdAt: -1, _id: -1 });
OrganisationSchema.index({ createdAt: -1, _id: -1 });
