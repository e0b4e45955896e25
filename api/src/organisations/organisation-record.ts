import {
  DEFAULT_INVOICING_MODE,
  type OrganisationContact,
  type OrganisationKind,
  type OrganisationRole,
  type OrganisationStatus,
  type OrganisationTerms,
  type PriceList,
} from '@spc/shared-contracts';
import type { Organisation } from './schemas/organisation.schema';

/** A person of an organisation as stored: their account and role. */
export interface MemberRecord {
  accountId: string;
  role: OrganisationRole;
  joinedAt: string;
}

/** An organisation as every reader of the repository gets it: plain, dates as ISO text. */
export interface OrganisationRecord {
  _id: string;
  name: string;
  kraPin: string;
  kind: OrganisationKind;
  status: OrganisationStatus;
  statusReason: string;
  billingContact: OrganisationContact;
  deliveryContact: OrganisationContact;
  terms: OrganisationTerms;
  priceList: PriceList;
  members: MemberRecord[];
  createdAt: string;
  updatedAt: string;
}

export type LeanOrganisation = Organisation & { _id: { toString(): string } };

const iso = (d: Date | string) => new Date(d).toISOString();
const contact = (c: OrganisationContact): OrganisationContact => ({
  name: c.name,
  phone: c.phone,
  email: c.email,
});

export function toRecord(doc: LeanOrganisation): OrganisationRecord {
  return {
    _id: doc._id.toString(),
    name: doc.name,
    kraPin: doc.kraPin,
    kind: doc.kind,
    status: doc.status,
    statusReason: doc.statusReason ?? '',
    billingContact: contact(doc.billingContact),
    deliveryContact: contact(doc.deliveryContact),
    terms: {
      paymentDays: doc.terms.paymentDays,
      creditLimit: doc.terms.creditLimit,
      onAccount: doc.terms.onAccount,
      invoicing: doc.terms.invoicing ?? DEFAULT_INVOICING_MODE,
    },
    priceList: {
      discountPercent: doc.priceList?.discountPercent ?? 0,
      prices: (doc.priceList?.prices ?? []).map((p) => ({
        productId: p.productId,
        unitId: p.unitId,
        price: p.price,
      })),
    },
    members: (doc.members ?? []).map((m) => ({
      accountId: m.accountId,
      role: m.role,
      joinedAt: iso(m.joinedAt),
    })),
    createdAt: iso(doc.createdAt),
    updatedAt: iso(doc.updatedAt),
  };
}

/** The member with this account, if any. */
export function memberOf(org: OrganisationRecord, accountId: string): MemberRecord | undefined {
  return org.members.find((m) => m.accountId === accountId);
}
