/**
 * Business accounts (issue 42): organisations that buy in quantity (a county, an NGO, a school…),
 * the people who buy for them and the terms the shop gives them. The API enforces these rules; the
 * storefront and the back office show the same words and offer only what the API would take.
 */
import type { ActorKind } from './constants';
import { DEFAULT_INVOICING_MODE, INVOICING_MODES, type InvoicingMode } from './invoices';

/** What an organisation is; the codes are stored, the labels shown. */
export const ORGANISATION_KINDS = [
  'county',
  'ngo',
  'school',
  'company',
  'cooperative',
  'church',
  'other',
] as const;
export type OrganisationKind = (typeof ORGANISATION_KINDS)[number];
export const ORGANISATION_KIND_LABELS: Readonly<Record<OrganisationKind, string>> = {
  county: 'County government',
  ngo: 'NGO',
  school: 'School',
  company: 'Company',
  cooperative: 'Co-operative',
  church: 'Church',
  other: 'Other',
};

/**
 * Where an organisation stands with the shop. A customer's sign-up waits as `pending` until staff
 * approve or decline it; an organisation staff create is `approved` at once. `suspended` stops an
 * approved one buying on its terms until staff approve it again. Only `approved` buys on its terms.
 */
export const ORGANISATION_STATUSES = ['pending', 'approved', 'suspended', 'declined'] as const;
export type OrganisationStatus = (typeof ORGANISATION_STATUSES)[number];
export const ORGANISATION_STATUS_LABELS: Readonly<Record<OrganisationStatus, string>> = {
  pending: 'Awaiting approval',
  approved: 'Approved',
  suspended: 'Suspended',
  declined: 'Declined',
};

/** What staff do to an organisation's status. */
export type OrganisationAction = 'approve' | 'suspend' | 'decline';

export interface OrganisationActionRule {
  from: readonly OrganisationStatus[];
  to: OrganisationStatus;
  by: readonly ActorKind[];
  /** Why it may not be taken from another status. */
  refused: string;
}

/** The one table of status changes: the API's guards and both apps' buttons read it. */
export const ORGANISATION_RULES: Readonly<Record<OrganisationAction, OrganisationActionRule>> = {
  approve: {
    from: ['pending', 'suspended', 'declined'],
    to: 'approved',
    by: ['staff', 'admin'],
    refused: 'This organisation is already approved',
  },
  suspend: {
    from: ['approved'],
    to: 'suspended',
    by: ['staff', 'admin'],
    refused: 'Only an approved organisation can be suspended',
  },
  decline: {
    from: ['pending'],
    to: 'declined',
    by: ['staff', 'admin'],
    refused: 'Only an organisation awaiting approval can be declined',
  },
};

/** True when `action` may be taken on an organisation in `status` by `by`. */
export function canActOnOrganisation(
  action: OrganisationAction,
  status: OrganisationStatus,
  by: ActorKind,
): boolean {
  const rule = ORGANISATION_RULES[action];
  return rule.from.includes(status) && rule.by.includes(by);
}

/**
 * What a person does for their organisation: a buyer asks for quotations, an approver accepts them
 * (and manages the organisation's people). An organisation keeps at least one approver.
 */
export const ORGANISATION_ROLES = ['buyer', 'approver'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];
export const ORGANISATION_ROLE_LABELS: Readonly<Record<OrganisationRole, string>> = {
  buyer: 'Buyer',
  approver: 'Approver',
};

// The KRA PIN rule, in a module of its own so a buyer's PIN (issue 45) takes it without the rest.
export { KRA_PIN_MESSAGE, KRA_PIN_PATTERN, normaliseKraPin } from './kra-pin';

export const ORGANISATION_LIMITS = {
  name: 120,
  contactName: 100,
  statusReason: 300,
  /** Payment terms: days after the invoice (0: on delivery). */
  paymentDaysMax: 180,
  /** Whole KES. */
  creditLimitMax: 1_000_000_000,
  /**
   * Prices one list holds: a full list (about four JSON values a price) stays within the 1,000
   * values the API reads in any body, so one price too many is refused by name, not as too large.
   */
  priceListEntries: 200,
  /** Whole KES for one unit of a product. */
  priceMax: 10_000_000,
  /** Days an invitation to join an organisation may be accepted. */
  invitationDays: 14,
  /** Invitations one organisation may send in a day (the shop's day). */
  invitationsPerDay: 30,
  /** People of one organisation. */
  people: 100,
} as const;

/** Terms a new organisation starts with, until an admin sets its own. */
export const DEFAULT_ORGANISATION_TERMS: OrganisationTerms = {
  paymentDays: 30,
  creditLimit: 0,
  onAccount: false,
  invoicing: DEFAULT_INVOICING_MODE,
};

export const ORGANISATION_MESSAGES = {
  nameRequired: "The organisation's name is required",
  kindInvalid: `kind must be one of: ${ORGANISATION_KINDS.join(', ')}`,
  roleInvalid: `role must be one of: ${ORGANISATION_ROLES.join(', ')}`,
  contactRequired:
    'A billing and a delivery contact are required, each with a name, phone and e-mail',
  contactNameRequired: "The contact's name is required",
  kraPinTaken:
    'An organisation with this KRA PIN is already registered. If it is yours, ask its approver to invite you, or contact the shop.',
  alreadyMember:
    'You already buy for an organisation: a customer account buys for one organisation only.',
  personAlreadyMember: 'This person is already one of its people',
  lastApprover: 'An organisation keeps at least one approver: make someone else an approver first',
  notMember: 'No person of this organisation has this id',
  noOrganisation: 'No organisation with this id',
  noInvitation: 'No invitation with this id',
  invitationCode:
    'The code from the invitation e-mail is required: open the link in the e-mail to accept or decline',
  invitationSent: (days: number) =>
    `Invitation recorded. If this address belongs to a customer account of the shop, its owner has been e-mailed and can accept it from their account within ${days} days. Someone without an account must create one first, then be invited again.`,
  tooManyInvitations: `An organisation can send at most ${ORGANISATION_LIMITS.invitationsPerDay} invitations a day: try again tomorrow`,
  tooManyPeople: `An organisation can have at most ${ORGANISATION_LIMITS.people} people`,
  organisationDeclined: 'This organisation was declined by the shop: it takes no new people',
  paymentDays: `Payment days must be a whole number from 0 to ${ORGANISATION_LIMITS.paymentDaysMax}`,
  creditLimit: `The credit limit must be a whole number of shillings from 0 to ${ORGANISATION_LIMITS.creditLimitMax.toLocaleString('en-US')}`,
  onAccount: 'onAccount must be true or false',
  invoicing: `invoicing must be one of: ${INVOICING_MODES.join(', ')}`,
  discount: 'The discount must be a whole percent from 0 to 100',
  price: `A price must be a whole number of shillings from 0 to ${ORGANISATION_LIMITS.priceMax.toLocaleString('en-US')}`,
  priceListTooLong: `A price list can have at most ${ORGANISATION_LIMITS.priceListEntries} prices`,
  priceListDuplicate: 'The price list names the same product and unit twice',
  unknownProduct: (productId: string) => `No product has the id ${productId}`,
  unknownUnit: (productName: string, unitId: string) =>
    `${productName} has no unit with the id ${unitId}`,
} as const;

/** A person the shop writes to about the organisation's bills or its deliveries. */
export interface OrganisationContact {
  name: string;
  phone: string;
  email: string;
}

/** What an admin gives an approved organisation. */
export interface OrganisationTerms {
  /** Days after the invoice it pays in. */
  paymentDays: number;
  /** Whole KES it may owe at once (invoiced and unpaid, plus accepted and not invoiced). */
  creditLimit: number;
  /** May order on account (pay on terms) rather than before delivery. */
  onAccount: boolean;
  /** Invoiced per tranche delivered (the default) or once for the whole order (issue 44). */
  invoicing: InvoicingMode;
}

/** One negotiated price: KES for one unit of a product (its single seedling or a larger unit). */
export interface PriceListEntry {
  productId: string;
  unitId: string;
  price: number;
}

/**
 * An organisation's own prices: a price per product and unit where it has one; otherwise the
 * shop's price (the tier its quantity reaches, or the offer) less `discountPercent`.
 */
export interface PriceList {
  discountPercent: number;
  prices: PriceListEntry[];
}

export const EMPTY_PRICE_LIST: PriceList = { discountPercent: 0, prices: [] };

/**
 * The list's own price (whole KES) for this product and unit, or null when it has none (ids are
 * matched however they are cased). A line at its own price no longer has a tier.
 */
export function ownPriceOf(list: PriceList, productId: string, unitId: string): number | null {
  const product = productId.toLowerCase();
  const unit = unitId.toLowerCase();
  const own = list.prices.find(
    (p) => p.productId.toLowerCase() === product && p.unitId.toLowerCase() === unit,
  );
  return own ? own.price : null;
}

/**
 * What an organisation pays for one unit: its own price for this product and unit when the list has
 * one, else `shopPrice` (the price the shop would charge anyone for this quantity: `priceUnit`'s)
 * less the list's discount, rounded to the nearest shilling (half up). Whole KES in, whole KES out.
 */
export function organisationUnitPrice(
  list: PriceList,
  productId: string,
  unitId: string,
  shopPrice: number,
): number {
  const own = ownPriceOf(list, productId, unitId);
  if (own !== null) return own;
  if (!list.discountPercent) return shopPrice;
  // Integers only: shopPrice × (100 − d) is exact; halves round up.
  return Math.floor((shopPrice * (100 - list.discountPercent) + 50) / 100);
}

/** A person who buys for an organisation, as its approvers and the shop see them. */
export interface OrganisationPerson {
  accountId: string;
  fullName: string;
  email: string;
  role: OrganisationRole;
  joinedAt: string;
}

/** An invitation waiting for its person (the address as the inviter typed it). */
export interface OrganisationInvitationView {
  _id: string;
  email: string;
  role: OrganisationRole;
  invitedAt: string;
  expiresAt: string;
}

/** A price list entry with the names the catalogue has for it now (null: no longer sold). */
export interface PriceListEntryView extends PriceListEntry {
  productName: string | null;
  unitName: string | null;
}

/** An organisation as its people and the shop see it. */
export interface OrganisationView {
  _id: string;
  name: string;
  kraPin: string;
  kind: OrganisationKind;
  status: OrganisationStatus;
  /** The shop's words when it suspended or declined it; '' otherwise. */
  statusReason: string;
  billingContact: OrganisationContact;
  deliveryContact: OrganisationContact;
  terms: OrganisationTerms;
  priceList: { discountPercent: number; prices: PriceListEntryView[] };
  people: OrganisationPerson[];
  /** Waiting invitations: shown to its approvers and the shop, empty for a buyer. */
  invitations: OrganisationInvitationView[];
  createdAt: string;
  updatedAt: string;
}

/** One row of the back office's list of organisations. */
export interface OrganisationSummary {
  _id: string;
  name: string;
  kraPin: string;
  kind: OrganisationKind;
  status: OrganisationStatus;
  people: number;
  createdAt: string;
}
