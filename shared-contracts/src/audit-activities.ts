/**
 * The audit trail's activities in words. Each action code the API records has a name (what the
 * filter lists: "Created category") and, when the entry names the record it changed, a sentence
 * ("Created category Fruits"). A code not listed here (added by a later feature) still reads as
 * words: `delivery-zone.create` becomes "Created delivery zone", `stock.loss` "Stock loss".
 */
export interface AuditActivity {
  /** The activity without its record, e.g. "Marked order in transit". */
  name: string;
  /** The activity with its record; `{target}` is replaced by the record's label. */
  sentence?: string;
}

/** The most entries one CSV export of the audit trail holds (the newest ones matching). */
export const AUDIT_EXPORT_LIMIT = 10_000;

/**
 * The trail counts its matches up to this many (or to the end of the page asked for, if further):
 * past it the total is a lower bound, "1,000+", and the list says so in TOTAL_IS_LOWER_BOUND_HEADER.
 * A count costs every entry it counts; a trail of years holds hundreds of thousands.
 */
export const AUDIT_COUNT_LIMIT = 1_000;

/**
 * The header beside `X-Total-Count` on the audit trail's list and export: `true` when the count
 * stopped at its bound and more entries match (the total is a lower bound), else `false`. It is
 * the orders list's `totalIsLowerBound` field; a header here because the trail's answer is a plain
 * array with its total in `X-Total-Count` (the spec's contract), so the bound goes beside the total.
 */
export const TOTAL_IS_LOWER_BOUND_HEADER = 'X-Total-Is-Lower-Bound';

/** The action of a sign-in, which the trail can hide for customers. */
export const AUDIT_SIGN_IN_ACTION = 'auth.login';

/**
 * What "hide customers' sign-ins" hides: a customer's sign-in. The API stores it on each entry as
 * `customerSignIn` when it writes it (and seed-years on the entries it makes); the migration states
 * the same rule as a query.
 */
export function isCustomerSignIn(entry: {
  action: string;
  performedBy?: { role?: string } | null;
}): boolean {
  return entry.action === AUDIT_SIGN_IN_ACTION && entry.performedBy?.role === 'customer';
}

export const AUDIT_ACTIVITIES: Readonly<Record<string, AuditActivity>> = {
  'auth.login': { name: 'Signed in' },
  'auth.password.change': { name: 'Changed their password' },
  'profile.update': { name: 'Updated their profile' },

  'user.update': { name: 'Updated user', sentence: 'Updated user {target}' },
  'user.deactivate': { name: 'Deactivated user', sentence: 'Deactivated user {target}' },
  'user.restore': { name: 'Restored user', sentence: 'Restored user {target}' },
  'user.delete': { name: 'Deleted user', sentence: 'Deleted user {target}' },

  'staff.create': { name: 'Created staff member', sentence: 'Created staff member {target}' },
  'staff.update': { name: 'Updated staff member', sentence: 'Updated staff member {target}' },
  'staff.deactivate': {
    name: 'Deactivated staff member',
    sentence: 'Deactivated staff member {target}',
  },
  'staff.restore': { name: 'Restored staff member', sentence: 'Restored staff member {target}' },
  'staff.delete': { name: 'Deleted staff member', sentence: 'Deleted staff member {target}' },

  'category.create': { name: 'Created category', sentence: 'Created category {target}' },
  'category.update': { name: 'Updated category', sentence: 'Updated category {target}' },
  'category.delete': { name: 'Deleted category', sentence: 'Deleted category {target}' },

  'product.create': { name: 'Created product', sentence: 'Created product {target}' },
  'product.update': { name: 'Updated product', sentence: 'Updated product {target}' },
  'product.delete': { name: 'Deleted product', sentence: 'Deleted product {target}' },
  'product.stock.out': {
    name: 'Marked a product out of stock',
    sentence: 'Marked {target} out of stock',
  },
  'product.stock.in': { name: 'Restocked a product', sentence: 'Restocked {target}' },
  'product.offer': { name: 'Put a product on offer', sentence: 'Put {target} on offer' },
  'stock.loss': { name: 'Recorded a stock loss', sentence: 'Recorded a loss of {target}' },
  'stock.count': { name: 'Corrected a stock count', sentence: 'Corrected the count of {target}' },

  'batch.create': { name: 'Created a batch', sentence: 'Created batch {target}' },
  'batch.update': { name: 'Changed a batch', sentence: 'Changed batch {target}' },
  'batch.loss': { name: 'Recorded a batch loss', sentence: 'Recorded a loss of batch {target}' },
  'batch.ready': { name: 'Marked a batch ready', sentence: 'Marked batch {target} ready' },
  'batch.fail': { name: 'Marked a batch failed', sentence: 'Marked batch {target} failed' },

  'organisation.create': {
    name: 'Registered an organisation',
    sentence: 'Registered organisation {target}',
  },
  'organisation.update': {
    name: 'Changed an organisation',
    sentence: 'Changed organisation {target}',
  },
  'organisation.approve': { name: 'Approved an organisation', sentence: 'Approved {target}' },
  'organisation.suspend': { name: 'Suspended an organisation', sentence: 'Suspended {target}' },
  'organisation.decline': { name: 'Declined an organisation', sentence: 'Declined {target}' },
  'organisation.terms': {
    name: "Set an organisation's terms",
    sentence: 'Set the terms of {target}',
  },
  'organisation.price-list': {
    name: "Set an organisation's price list",
    sentence: 'Set the price list of {target}',
  },
  'organisation.invite': {
    name: 'Invited a person to an organisation',
    sentence: 'Invited a person to {target}',
  },
  'organisation.invitation.withdraw': {
    name: 'Withdrew an invitation to an organisation',
    sentence: 'Withdrew an invitation to {target}',
  },
  'organisation.invitation.decline': {
    name: 'Declined an invitation to an organisation',
    sentence: 'Declined an invitation to {target}',
  },
  'organisation.join': { name: 'Joined an organisation', sentence: 'Joined {target}' },
  'organisation.role': {
    name: "Changed a person's role in an organisation",
    sentence: 'Changed the organisation role of {target}',
  },
  'organisation.remove': {
    name: 'Removed a person from an organisation',
    sentence: 'Removed {target} from their organisation',
  },

  'quotation.request': {
    name: 'Asked for a quotation',
    sentence: 'Asked for quotation {target}',
  },
  'quotation.draft': { name: 'Priced a quotation', sentence: 'Priced quotation {target}' },
  'quotation.send': { name: 'Sent a quotation', sentence: 'Sent quotation {target}' },
  'quotation.message': {
    name: 'Wrote on a quotation',
    sentence: 'Wrote on quotation {target}',
  },
  'quotation.ask-changes': {
    name: 'Asked for changes to a quotation',
    sentence: 'Asked for changes to quotation {target}',
  },
  'quotation.decline': { name: 'Declined a quotation', sentence: 'Declined quotation {target}' },
  'quotation.withdraw': {
    name: 'Withdrew a quotation',
    sentence: 'Withdrew quotation {target}',
  },
  'quotation.accept': { name: 'Accepted a quotation', sentence: 'Accepted quotation {target}' },
  'quotation.accept-undone': {
    name: 'Gave back an unfinished acceptance',
    sentence: 'Gave back the unfinished acceptance of quotation {target}',
  },

  'invoice.payment': {
    name: 'Recorded a payment on an invoice',
    sentence: 'Recorded a payment on invoice {target}',
  },
  'invoice.withholding': {
    name: 'Recorded tax withheld on an invoice',
    sentence: 'Recorded tax withheld on invoice {target}',
  },
  'invoice.credit-note': {
    name: 'Gave a credit note',
    sentence: 'Gave a credit note on invoice {target}',
  },

  'order.payment': {
    name: 'Recorded a payment',
    sentence: 'Recorded a payment for order {target}',
  },
  'order.payment.receipt': {
    name: 'Added an M-Pesa receipt',
    sentence: 'Added an M-Pesa receipt to order {target}',
  },
  'order.inTransit': {
    name: 'Marked order in transit',
    sentence: 'Marked order {target} in transit',
  },
  'order.delivered': {
    name: 'Confirmed delivery',
    sentence: 'Confirmed delivery of order {target}',
  },
  'order.fulfil': { name: 'Fulfilled order', sentence: 'Fulfilled order {target}' },
  'order.update': {
    name: 'Changed delivery details',
    sentence: 'Changed the delivery details of order {target}',
  },
  'order.cancel': { name: 'Cancelled order', sentence: 'Cancelled order {target}' },
  'order.expire': {
    name: 'Cancelled an unpaid order automatically',
    sentence: 'Cancelled unpaid order {target} automatically',
  },
  'order.delete': { name: 'Deleted order', sentence: 'Deleted order {target}' },
  // Tranches of an order (issue 43): the target is the order, the text names the tranche.
  'tranche.plan': { name: 'Planned a tranche', sentence: 'Planned a tranche of order {target}' },
  'tranche.change': { name: 'Changed a tranche', sentence: 'Changed a tranche of order {target}' },
  'tranche.cancel': {
    name: 'Cancelled a tranche',
    sentence: 'Cancelled a tranche of order {target}',
  },
  'tranche.dispatch': {
    name: 'Dispatched a tranche',
    sentence: 'Dispatched a tranche of order {target}',
  },
  'tranche.deliver': {
    name: 'Recorded a signed delivery note',
    sentence: 'Recorded the signed note of a tranche of order {target}',
  },
  'tranche.signed-note': {
    name: 'Attached a signed delivery note',
    sentence: 'Attached the signed delivery note of a tranche of order {target}',
  },
  'order.lpo-scan': {
    name: 'Attached a scanned LPO',
    sentence: 'Attached the scanned LPO of order {target}',
  },

  'booking.deposit': {
    name: "Recorded a booking's deposit",
    sentence: 'Recorded the deposit of booking {target}',
  },
  'booking.ready': {
    name: 'Asked for a booking balance',
    sentence: 'Asked for the balance of booking {target}: its batch is ready',
  },
  'booking.release': {
    name: 'Released an unpaid booking',
    sentence: 'Released booking {target}: its balance was unpaid',
  },
  'booking.affected': {
    name: 'Marked a booking affected',
    sentence: 'Marked booking {target} affected by its batch',
  },
  'booking.move': { name: 'Moved a booking', sentence: 'Moved booking {target} to another batch' },
  'booking.refund': { name: 'Refunded a booking', sentence: 'Refunded booking {target}' },

  'payment.mpesa.failed': {
    name: 'M-Pesa payment failed',
    sentence: 'M-Pesa payment for order {target} failed',
  },
  'payment.mpesa.reopened': {
    name: 'Accepted a late M-Pesa payment',
    sentence: 'Accepted a late M-Pesa payment for order {target}',
  },
  'payment.mpesa.refund': {
    name: 'M-Pesa payment to refund by hand',
    sentence: 'M-Pesa payment for order {target} to refund by hand',
  },
  'payment.mpesa.duplicate': {
    name: 'Ignored a repeated M-Pesa callback',
    sentence: 'Ignored a repeated M-Pesa callback for order {target}',
  },
  'payment.mpesa.unknown': { name: 'Ignored an unknown M-Pesa callback' },

  'orders.export': { name: 'Exported orders', sentence: 'Exported {target}' },
  'audit.export': { name: 'Exported the audit trail', sentence: 'Exported {target}' },
  'order.document': { name: 'Downloaded an order document', sentence: 'Downloaded {target}' },
  'invoice.statement': {
    name: "Downloaded an organisation's statement",
    sentence: 'Downloaded {target}',
  },
  'invoice.reminder': {
    name: 'Reminded a billing contact of an invoice',
    sentence: 'Reminded the billing contact of invoice {target}',
  },
  'etims.resend': {
    name: 'Resent a document to KRA eTIMS',
    sentence: 'Resent {target} to KRA eTIMS',
  },
  'etims.signature': {
    name: "Copied a document's eTIMS signature from KRA's portal",
    sentence: "Copied the eTIMS signature of {target} from KRA's portal",
  },
  'etims.export': { name: 'Exported the daily eTIMS summary', sentence: 'Exported {target}' },

  'privacy.settings.update': {
    name: 'Changed the privacy settings',
    sentence: 'Changed the privacy settings: {target}',
  },
  'privacy.export': { name: 'Downloaded their data' },

  'tax.settings.update': {
    name: "Changed the shop's default tax type",
    sentence: "Changed the shop's default tax type: {target}",
  },
  'privacy.delete-account': { name: 'Deleted their account' },
  'privacy.request.create': {
    name: 'Asked about their data',
    sentence: 'Asked about their data (guest order {target})',
  },
  'privacy.request.confirm': {
    name: 'Confirmed a data request',
    sentence: 'Confirmed the data request about order {target}',
  },
  'privacy.request.export': {
    name: 'Answered a data request with the data',
    sentence: 'Sent the data asked for about order {target}',
  },
  'privacy.request.erase': {
    name: 'Answered a data request by erasing',
    sentence: 'Erased the contacts asked about with order {target}',
  },

  'site-picture.update': {
    name: 'Uploaded a shop picture',
    sentence: 'Uploaded the shop picture for {target}',
  },
  'site-picture.remove': {
    name: 'Removed a shop picture',
    sentence: 'Removed the shop picture for {target}',
  },
};

/** Past tenses of the verbs later codes end with, so an unlisted `thing.verb` reads "Verbed thing". */
const VERBS: Readonly<Record<string, string>> = {
  create: 'Created',
  add: 'Added',
  update: 'Updated',
  edit: 'Edited',
  change: 'Changed',
  delete: 'Deleted',
  remove: 'Removed',
  restore: 'Restored',
  deactivate: 'Deactivated',
  archive: 'Archived',
  send: 'Sent',
  reply: 'Replied to',
  read: 'Read',
  record: 'Recorded',
  import: 'Imported',
  export: 'Exported',
};

/** `deliveryZone`, `delivery-zone`, `delivery_zone` → `delivery zone`. */
function words(part: string): string {
  return part
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An unlisted code in words: "Created delivery zone", "Order bulk in transit", "Stock loss". */
function fallbackName(action: string): string {
  const parts = action.split('.').filter(Boolean);
  if (parts.length === 0) return 'Unknown activity';
  const verb = VERBS[parts[parts.length - 1]!];
  if (verb && parts.length > 1) return `${verb} ${parts.slice(0, -1).map(words).join(' ')}`;
  return capitalise(parts.map(words).join(' '));
}

/** The activity of an action code in words, without its record: "Created category". */
export function auditActivityName(action: string): string {
  return AUDIT_ACTIVITIES[action]?.name ?? fallbackName(action);
}

/**
 * The activity of an entry as a sentence, naming its record when the entry has one:
 * "Created category Fruits", "Marked order SPD-0042 in transit", "Signed in".
 */
export function describeAuditActivity(action: string, targetLabel?: string | null): string {
  const known = AUDIT_ACTIVITIES[action];
  const label = targetLabel?.trim();
  if (!label) return known?.name ?? fallbackName(action);
  if (known) return known.sentence ? known.sentence.replace('{target}', label) : known.name;
  const name = fallbackName(action);
  const parts = action.split('.');
  const verb = parts.length > 1 ? VERBS[parts[parts.length - 1]!] : undefined;
  return verb ? `${name} ${label}` : `${name}: ${label}`;
}
