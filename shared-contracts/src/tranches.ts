/**
 * Tranches (issue 43): an organisation's order from a quotation delivered in parts. Each tranche
 * goes to a planting site (its name, county, sub-county and a contact) on a day, with some units
 * of the order's lines (from ready stock or a batch). It is dispatched on its own from the
 * dispatch desk with a delivery note naming the site; the site's officer signs the note and the
 * clerk records who signed, when, and what arrived (a short line with its reason). The API
 * enforces these rules; the back office and the storefront show the same words.
 */
import type { ActorKind } from './constants';

/**
 * Where a tranche stands:
 * - `Planned`: its site, day and lines are set; it may still be changed or cancelled;
 * - `Dispatched`: the load left the nursery (stock and batches moved); waiting for the signed note;
 * - `Delivered`: the signed note is recorded (what arrived; a short line's part came back);
 * - `Cancelled`: called off while planned (its units are free to plan again).
 */
export const TRANCHE_STATES = ['Planned', 'Dispatched', 'Delivered', 'Cancelled'] as const;
export type TrancheState = (typeof TRANCHE_STATES)[number];

export const TRANCHE_STATE_LABELS: Readonly<Record<TrancheState, string>> = {
  Planned: 'Planned',
  Dispatched: 'On its way',
  Delivered: 'Delivered (signed)',
  Cancelled: 'Cancelled',
};

/** A tranche's name in its order: T1, T2… (numbers are never reused, a cancelled one keeps its). */
export const trancheLabel = (number: number) => `T${number}`;

/** What is done to a tranche, by whom, from which states. */
export type TrancheAction =
  'change' | 'cancel' | 'dispatch' | 'recordDelivery' | 'attachSignedNote';

export interface TrancheActionRule {
  from: readonly TrancheState[];
  by: readonly ActorKind[];
  /** Why it may not be taken from another state (409 ILLEGAL_TRANSITION). */
  refused: string;
}

/** The one table of a tranche's steps: the API's guards and the back office's buttons read it. */
export const TRANCHE_RULES: Readonly<Record<TrancheAction, TrancheActionRule>> = {
  change: {
    from: ['Planned'],
    by: ['staff', 'admin'],
    refused: 'only a planned tranche can be changed',
  },
  cancel: {
    from: ['Planned'],
    by: ['staff', 'admin'],
    refused:
      'only a planned tranche can be cancelled (a load that left is recorded as delivered, short if need be)',
  },
  dispatch: {
    from: ['Planned'],
    by: ['staff'],
    refused: 'only a planned tranche can be dispatched',
  },
  recordDelivery: {
    from: ['Dispatched'],
    by: ['staff'],
    refused: 'only a dispatched tranche can have its signed delivery note recorded',
  },
  /** The photo or scan of the signed note, kept with the tranche (a new one replaces the old). */
  attachSignedNote: {
    from: ['Dispatched', 'Delivered'],
    by: ['staff', 'admin'],
    refused:
      'only a tranche that left (dispatched or delivered) has a signed delivery note to attach',
  },
};

export function canActOnTranche(action: TrancheAction, state: TrancheState, by: ActorKind) {
  const rule = TRANCHE_RULES[action];
  return rule.from.includes(state) && rule.by.includes(by);
}

/**
 * The dispatch desk's buckets of tranches (a tranche is a unit of work like an order):
 * - toDispatch: planned, dated today or earlier;
 * - upcoming: planned, dated after today;
 * - awaitingSignature: dispatched, its signed note not recorded yet.
 */
export const TRANCHE_QUEUES = ['toDispatch', 'upcoming', 'awaitingSignature'] as const;
export type TrancheQueue = (typeof TRANCHE_QUEUES)[number];

export const TRANCHE_QUEUE_LABELS: Readonly<Record<TrancheQueue, string>> = {
  toDispatch: 'Tranches due out',
  upcoming: 'Tranches planned later',
  awaitingSignature: 'Tranches awaiting the signed note',
};

export const TRANCHE_LIMITS = {
  /** Tranches one order may have (cancelled ones count: numbers are never reused). */
  perOrder: 50,
  /** Lines of one tranche (an order from a quotation has at most 50). */
  lines: 50,
  siteName: 120,
  contactName: 100,
  signedBy: 100,
  shortReason: 300,
  /** How far ahead a tranche may be dated, in days. */
  daysAhead: 366,
  /** Units of one line of a tranche (a quotation's line holds at most 500,000 seedlings). */
  lineQuantity: 500_000,
  /** How far a signature's time may be ahead of the server's clock (a phone's clock), in minutes. */
  clockSkewMinutes: 5,
} as const;

export const TRANCHE_MESSAGES = {
  noTranche: (purchaseNumber: string, number: number) =>
    `Order ${purchaseNumber} has no tranche ${trancheLabel(number)}`,
  notFromQuotation: (purchaseNumber: string) =>
    `Order ${purchaseNumber} was not made from a quotation: only an organisation's order from a quotation is delivered in tranches`,
  linesRequired: 'A tranche needs at least one line',
  tooManyLines: `A tranche can have at most ${TRANCHE_LIMITS.lines} lines`,
  lineQuantity: `A line's quantity must be a whole number of units from 1 to ${TRANCHE_LIMITS.lineQuantity.toLocaleString('en-US')}`,
  duplicateLine: 'The tranche names the same line of the order twice',
  datePast: "A tranche's date cannot be before today",
  dateTooFar: `A tranche's date can be at most ${TRANCHE_LIMITS.daysAhead} days ahead`,
  tooMany: `An order can have at most ${TRANCHE_LIMITS.perOrder} tranches`,
  siteRequired: 'The site needs a name',
  contactRequired: "The site's contact needs a name and a phone",
  contactNameRequired: "The site's contact needs a name",
  contactPhone:
    "The site contact's phone must be a Kenyan mobile number (07…, 01… or +254…): the load's text messages go to it",
  signedByRequired: 'Who signed the delivery note is required',
  signedAtFuture: 'The note cannot be signed in the future',
  shortReasonRequired: 'A line delivered short needs its reason',
  deliveredTooMany: (label: string, dispatched: number) =>
    `${label}: at most the ${dispatched.toLocaleString('en-US')} units dispatched can be delivered`,
  nothingToChange: 'Send the site, the date or the lines to change',
} as const;

/** The events the site contact gets a text message for, each at most once per tranche (and day). */
export const TRANCHE_SMS_EVENTS = ['tranche-tomorrow', 'tranche-sent'] as const;
export type TrancheSmsEvent = (typeof TRANCHE_SMS_EVENTS)[number];

/** The delivery note of a tranche, as printed. */
export const TRANCHE_NOTE_TEXTS = {
  title: 'Delivery note',
  receivedBy: 'Received by (name)',
  signature: 'Signature',
  date: 'Date',
  instructions:
    'Count the seedlings on arrival. Write what arrived in "Received" and why any line is short, then sign and return this note to the driver.',
} as const;
