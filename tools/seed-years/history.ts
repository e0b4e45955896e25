/**
 * The pure part of `npm run seed:years`: three years (or any span) of a growing shop's orders, with
 * what each order left behind (stock movements, audit entries, SMS records, refunds), built in the
 * shapes the API reads (api/src/orders/schemas, inventory/schemas, audit/schemas, sms/). No database
 * here: seed-years.ts writes what this returns.
 *
 * One place builds an order line (`buildLine`: sale units and their quantity tiers, issue 29) and
 * one the life of an order (`orderLife`: how it was paid, by M-Pesa Express, the paybill (issue 30:
 * the `mpesa_c2b_payments` records) or cash, each payment and refund an entry of the money ledger
 * (issue 38, money.ts: `moneyCredits` and `amountPaid` from them)). Bookings (issue 32)
 * are built beside them, in bookings.ts (`buildBooking`: a line drawn by `buildLine` on a batch, its
 * deposit and balance, the life of the booking and its batch's holds).
 */
import { ObjectId } from 'mongodb';
import {
  DEFAULT_UNIT_NAME,
  PURCHASE_NUMBER,
  priceUnit,
  type OrderSmsEvent,
  type SaleUnit,
} from '@spc/shared-contracts';
import { inboxEntry, MoneyBook, MPESA_SYSTEM } from './money';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Nairobi is UTC+3 all year. */
const NAIROBI_OFFSET_MS = 3 * 60 * 60 * 1000;

/** A small fast PRNG (mulberry32): the same seed builds the same shop. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export type Rand = () => number;
export const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
export const between = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

export interface CatalogueProduct {
  _id: string;
  productName: string;
  productImage: string;
  price: number;
  /** Its sale units, the first the single seedling (as the API stores them). */
  units: SaleUnit[];
}

/**
 * Orders placed before this many days ago predate sale units (issue 29): their lines carry no unit
 * fields, as the API reads older lines (the single seedling).
 */
export const UNITS_SINCE_DAYS = 240;
/**
 * Paybill payments (issue 30) began this many days ago; from then on this share of M-Pesa payments
 * come by the paybill rather than by the M-Pesa Express prompt.
 */
export const PAYBILL_SINCE_DAYS = 180;
export const PAYBILL_SHARE = 0.3;
/** The shop's paybill number (Daraja's sandbox shortcode). */
export const SHORTCODE = '600000';

export interface Person {
  id: string;
  fullName: string;
  role: 'admin' | 'staff' | 'system';
}

export interface Contact {
  /** The customer's account id, or null for a guest. */
  userId: string | null;
  fullName: string;
  phoneNumber: string;
  email: string;
  county: string;
  subCounty: string;
  ward: string;
  streetAddress: string;
}

const FIRST = [
  'Wanjiru',
  'Kamau',
  'Achieng',
  'Otieno',
  'Njeri',
  'Mwangi',
  'Wairimu',
  'Kiprop',
  'Chebet',
  'Mutua',
  'Atieno',
  'Kariuki',
  'Nyambura',
  'Omondi',
  'Wambui',
  'Kiplagat',
  'Muthoni',
  'Odhiambo',
  'Jeptoo',
  'Gathoni',
] as const;
const LAST = [
  'Kamau',
  'Njoroge',
  'Ochieng',
  'Wafula',
  'Mutiso',
  'Kiptoo',
  'Macharia',
  'Onyango',
  'Kilonzo',
  'Gitau',
  'Cheruiyot',
  'Maina',
  'Ndungu',
  'Barasa',
  'Kimani',
] as const;
const PLACES = [
  { county: 'Kiambu', subCounty: 'Kiambu Town', ward: 'Township' },
  { county: 'Kiambu', subCounty: 'Limuru', ward: 'Limuru Central' },
  { county: 'Kiambu', subCounty: 'Thika Town', ward: 'Township' },
  { county: 'Nairobi', subCounty: 'Westlands', ward: 'Parklands/Highridge' },
  { county: 'Nairobi', subCounty: 'Kasarani', ward: 'Roysambu' },
  { county: 'Murang’a', subCounty: 'Kiharu', ward: 'Township' },
  { county: 'Nakuru', subCounty: 'Nakuru Town East', ward: 'Biashara' },
] as const;

/** Customer `i`: a distinct phone and e-mail each, an account or a guest. */
export function buildContact(r: Rand, i: number, userId: string | null): Contact {
  const first = pick(r, FIRST);
  const last = pick(r, LAST);
  const place = pick(r, PLACES);
  const phone = `+2547${String(10_000_000 + i).padStart(8, '0')}`;
  return {
    userId,
    fullName: `${first} ${last}`,
    phoneNumber: phone,
    email: `${first}.${last}.${i}@example.co.ke`.toLowerCase(),
    ...place,
    streetAddress: `Plot ${between(r, 1, 900)}, ${place.ward} road`,
  };
}

/** A line as the API stores it: with its sale unit (issue 29), or without on older orders. */
export interface Line {
  productId: string;
  productName: string;
  productImage: string;
  unitPrice: number;
  quantity: number;
  lineTotal: number;
  unitId?: string;
  unitName?: string;
  seedlings?: number;
  tier?: { minQuantity: number; price: number } | null;
}

/**
 * One order line as it is sold, priced as the API prices it (`priceUnit`: the tier its quantity
 * reaches, or the unit's offer). With `withUnits` (orders since sale units came), about a third of
 * the lines of products sold by the tray are trays, a few enough to reach a quantity tier; the rest
 * single seedlings. Before, a line is single seedlings with no unit fields. A booked line (issue 32)
 * is drawn here too, by bookings.ts.
 */
export function buildLine(r: Rand, product: CatalogueProduct, withUnits: boolean): Line {
  const [single, ...others] = product.units;
  const tray = others.length && r() < 0.35 ? pick(r, others) : undefined;
  if (!withUnits || !single) {
    const quantity = r() < 0.6 ? between(r, 1, 10) : between(r, 10, 120);
    return {
      productId: product._id,
      productName: product.productName,
      productImage: product.productImage,
      unitPrice: product.price,
      quantity,
      lineTotal: product.price * quantity,
    };
  }
  const unit = tray ?? single;
  const step = Math.max(1, unit.step);
  const wanted = tray
    ? r() < 0.75
      ? between(r, 1, 4)
      : between(r, 5, 30)
    : r() < 0.6
      ? between(r, 1, 10)
      : between(r, 10, 120);
  const quantity = Math.max(unit.minQuantity, Math.ceil(wanted / step) * step);
  const { unitPrice, tier } = priceUnit(unit, quantity);
  return {
    productId: product._id,
    productName: product.productName,
    productImage: product.productImage,
    unitPrice,
    quantity,
    lineTotal: unitPrice * quantity,
    unitId: unit._id,
    unitName: unit.name,
    seedlings: unit.seedlings,
    tier,
  };
}

/** The seedlings a line takes from stock. */
export const seedlingsOf = (l: Line) => l.quantity * (l.seedlings ?? 1);

/** A tray unit for a product sold only by the seedling (seed:years gives one to most). */
export function trayUnitOf(price: number, seedlings: number): SaleUnit {
  return {
    _id: new ObjectId().toHexString(),
    name: `Tray of ${seedlings}`,
    seedlings,
    price: Math.round(price * seedlings * 0.9),
    offerPrice: 0,
    sku: '',
    minQuantity: 1,
    step: 1,
    tiers: [
      { minQuantity: 5, price: Math.round(price * seedlings * 0.85) },
      { minQuantity: 20, price: Math.round(price * seedlings * 0.8) },
    ],
  };
}

/** The single seedling unit of a product that stores none (its id is the product's own). */
export function singleUnitOf(productId: string, price: number): SaleUnit {
  return {
    _id: productId,
    name: DEFAULT_UNIT_NAME,
    seedlings: 1,
    price,
    offerPrice: 0,
    sku: '',
    minQuantity: 1,
    step: 1,
    tiers: [],
  };
}

let purchaseCounter = 0;
/** A purchase number in the shop's alphabet, unique by construction (a counter in base 32). */
export function purchaseNumber(): string {
  const { alphabet, length, prefix } = PURCHASE_NUMBER;
  let n = purchaseCounter++;
  let code = '';
  for (let i = 0; i < length; i++) {
    code = alphabet[n % alphabet.length] + code;
    n = Math.floor(n / alphabet.length);
  }
  return `${prefix}${code}`;
}

let receiptCounter = 0;
/** An M-Pesa-like receipt code (10 capitals and digits), unique by construction. */
export function receiptCode(at: Date): string {
  const year = 'QRSTUVWXYZ'[at.getUTCFullYear() % 10]!;
  return `${year}${(receiptCounter++).toString(36).toUpperCase().padStart(9, '0')}`;
}

/** The moments an order went through; null when it never did. */
interface Life {
  status: 'Pending' | 'Processing' | 'InTransit' | 'Delivered' | 'Completed' | 'Cancelled';
  paidAt: Date | null;
  inTransitAt: Date | null;
  deliveredAt: Date | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
  cancelledBy: 'customer' | 'staff' | 'system' | null;
  method: 'Mpesa' | 'Cash' | null;
  /** An M-Pesa payment that came by the paybill (C2B) rather than the Express prompt. */
  paybill: boolean;
  /** Still unpaid, with a paybill payment of part of the amount credited. */
  partPaid: boolean;
}

export const hours = (d: Date, h: number) => new Date(d.getTime() + h * 60 * 60 * 1000);

/**
 * Where an order placed `ageDays` ago is now. Old orders are settled (completed, or cancelled by the
 * customer, the clerk or the expiry); the last two weeks hold the live queue.
 */
export function orderLife(r: Rand, placed: Date, now: Date): Life {
  const ageDays = (now.getTime() - placed.getTime()) / DAY_MS;
  const life: Life = {
    status: 'Pending',
    paidAt: null,
    inTransitAt: null,
    deliveredAt: null,
    completedAt: null,
    cancelledAt: null,
    cancelledBy: null,
    method: null,
    paybill: false,
    partPaid: false,
  };
  const paybillEra = ageDays < PAYBILL_SINCE_DAYS;
  const capped = (d: Date) => (d.getTime() < now.getTime() ? d : null);
  const x = r();
  // Cancelled: 11 % (expired unpaid, by the customer, by the clerk; a few after payment, refunded).
  if (x < 0.11) {
    const expiredAfter = 48 + r() * 4;
    if (ageDays * 24 < expiredAfter && r() < 0.7) return life; // still waiting for payment
    life.status = 'Cancelled';
    const y = r();
    if (y < 0.55) {
      life.cancelledBy = 'system';
      life.cancelledAt = capped(hours(placed, expiredAfter)) ?? hours(placed, 1);
    } else if (y < 0.85) {
      life.cancelledBy = 'customer';
      life.cancelledAt = hours(placed, r() * 20);
    } else {
      life.cancelledBy = 'staff';
      life.method = r() < 0.8 ? 'Mpesa' : 'Cash';
      life.paybill = life.method === 'Mpesa' && paybillEra && r() < PAYBILL_SHARE;
      life.paidAt = hours(placed, r() * 2);
      life.cancelledAt = hours(placed, 3 + r() * 30);
    }
    if (life.cancelledAt.getTime() > now.getTime()) life.cancelledAt = new Date(now.getTime() - 1);
    return life;
  }
  // The others move on: paid within hours (M-Pesa) or a day (cash), sent, delivered, completed.
  life.method = r() < 0.82 ? 'Mpesa' : 'Cash';
  // The paybill is paid a little later than the prompt: the payer types the account number.
  life.paybill = life.method === 'Mpesa' && paybillEra && r() < PAYBILL_SHARE;
  life.paidAt = capped(
    hours(placed, life.method === 'Mpesa' ? r() * (life.paybill ? 3 : 0.5) : 2 + r() * 30),
  );
  if (!life.paidAt) {
    if (r() < 0.15) life.status = 'Processing';
    // A few unpaid orders hold a part payment by the paybill (the rest is still to come).
    life.partPaid = life.status === 'Pending' && life.paybill && r() < 0.3;
    life.method = null;
    life.paybill = false;
    return life;
  }
  life.inTransitAt = capped(hours(life.paidAt, 4 + r() * 40));
  if (!life.inTransitAt) return life;
  life.status = 'InTransit';
  life.deliveredAt = capped(hours(life.inTransitAt, 6 + r() * 60));
  if (!life.deliveredAt) return life;
  life.status = 'Delivered';
  // A few old delivered orders were never marked completed.
  if (r() < 0.03) return life;
  life.completedAt = capped(hours(life.deliveredAt, 2 + r() * 48));
  if (life.completedAt) life.status = 'Completed';
  return life;
}

/** A stock movement of one line, numbered later (seq and quantityAfter) by the product's ledger. */
export interface PendingMovement {
  productId: string;
  productName: string;
  reason: 'sale' | 'return' | 'batch-ready';
  change: number;
  orderId: string;
  purchaseNumber: string | null;
  by: { id: string; fullName: string; role: string } | null;
  at: Date;
  /** Empty on an order's own movements. */
  note?: string;
}

export interface BuiltOrder {
  order: Record<string, unknown>;
  movements: PendingMovement[];
  audit: Record<string, unknown>[];
  sms: Record<string, unknown>[];
  refund: Record<string, unknown> | null;
  /** Paybill payments (`mpesa_c2b_payments`): credited to this order, or waiting in the inbox. */
  payments: Record<string, unknown>[];
  /** The refunds of paybill over-payments sent back through Daraja (`mpesa_refunds`). */
  mpesaRefunds: Record<string, unknown>[];
  /** Its money-ledger entries (`money_entries`), and any inbox payment's. */
  money: Record<string, unknown>[];
}

/** The payer's number as Daraja's status query names it (2547XXXXXXXX). */
export const darajaPhone = (e164: string) => e164.replace(/^\+/, '');

export const SMS_TEXT: Record<OrderSmsEvent, (p: string) => string> = {
  placed: (p) => `SPC: order ${p} received. We will text you when it is paid.`,
  paid: (p) => `SPC: payment for order ${p} received. Thank you.`,
  sent: (p) => `SPC: order ${p} is on its way.`,
  delivered: (p) => `SPC: order ${p} delivered. Asante!`,
  cancelled: (p) => `SPC: order ${p} was cancelled.`,
  paybill: (p) => `SPC: the M-Pesa prompt for order ${p} did not go through. Pay by Paybill.`,
  deposit: (p) => `SPC: deposit for booking ${p} received.`,
  'balance-due': (p) => `SPC: your seedlings for booking ${p} are ready. Please pay the balance.`,
  released: (p) => `SPC: booking ${p} was released, its balance unpaid.`,
  affected: (p) => `SPC: the batch of booking ${p} failed. Move it or have it refunded.`,
  moved: (p) => `SPC: booking ${p} was moved to another batch.`,
  refunded: (p) => `SPC: the deposit of booking ${p} was refunded.`,
};

/** An order's delivery details and delivery as the API stores them, for a contact. */
export function orderContact(contact: Contact, pickup: boolean) {
  return {
    guestInfo: {
      fullName: contact.fullName,
      phoneNumber: contact.phoneNumber,
      email: contact.email,
      county: contact.county,
      subCounty: contact.subCounty,
      ward: contact.ward,
      streetAddress: contact.streetAddress,
    },
    delivery: pickup
      ? { method: 'collection', zoneName: 'Collection at the nursery', days: 1 }
      : { method: 'delivery', zoneName: contact.county, days: 3 },
  };
}

/**
 * What an order leaves in the audit trail and the SMS outbox, as the API writes them: `note` an
 * audit entry about the order, `text` one of its SMS (3 % failed).
 */
export function orderRecords(
  r: Rand,
  order: { id: string; number: string; phone: string },
): {
  audit: Record<string, unknown>[];
  sms: Record<string, unknown>[];
  note: (action: string, who: Person, at: Date, message: string) => void;
  text: (event: OrderSmsEvent, at: Date) => void;
} {
  const { id, number, phone } = order;
  const label = { type: 'order', id, label: number };
  const audit: Record<string, unknown>[] = [];
  const sms: Record<string, unknown>[] = [];
  const note = (action: string, who: Person, at: Date, message: string) => {
    audit.push({
      _id: new ObjectId(),
      action,
      message,
      performedBy: { id: who.id, fullName: who.fullName, role: who.role },
      target: label,
      timestamp: at,
    });
  };
  const text = (event: OrderSmsEvent, at: Date) => {
    sms.push({
      _id: `order:${id}:${event}`,
      orderId: id,
      purchaseNumber: number,
      event,
      to: phone,
      message: SMS_TEXT[event](number),
      status: r() < 0.97 ? 'sent' : 'failed',
      attempts: 1,
      nextTryAt: at,
      leaseUntil: at,
      lastError: '',
      gatewayId: `ATXid_${id}_${event}`,
      gatewayStatus: 'Success',
      createdAt: at,
      sentAt: at,
    });
  };
  return { audit, sms, note, text };
}

/** One order placed at `placed` by `contact`, with everything it left behind up to `now`. */
export function buildOrder(
  r: Rand,
  placed: Date,
  now: Date,
  contact: Contact,
  products: CatalogueProduct[],
  staff: Person[],
  system: Person,
): BuiltOrder {
  const _id = new ObjectId();
  const id = _id.toHexString();
  const number = purchaseNumber();
  const lineCount = r() < 0.55 ? 1 : r() < 0.7 ? between(r, 2, 3) : between(r, 4, 8);
  const chosen = new Map<string, CatalogueProduct>();
  while (chosen.size < Math.min(lineCount, products.length)) {
    const p = pick(r, products);
    chosen.set(p._id, p);
  }
  const withUnits = now.getTime() - placed.getTime() < UNITS_SINCE_DAYS * DAY_MS;
  const lines = [...chosen.values()].map((p) => buildLine(r, p, withUnits));
  const subtotal = lines.reduce((n, l) => n + l.lineTotal, 0);
  const pickup = r() < 0.25;
  const shippingFee = pickup ? 0 : pick(r, [150, 200, 300, 450]);
  const totalAmount = subtotal + shippingFee;
  const life = orderLife(r, placed, now);
  const clerk = pick(r, staff);
  const { audit, sms, note, text } = orderRecords(r, { id, number, phone: contact.phoneNumber });
  const customerActor = contact.userId
    ? { id: contact.userId, fullName: contact.fullName, role: 'customer' }
    : null;
  text('placed', placed);
  const movements: PendingMovement[] = lines.map((l) => ({
    productId: l.productId,
    productName: l.productName,
    reason: 'sale',
    change: -seedlingsOf(l),
    orderId: id,
    purchaseNumber: number,
    by: customerActor,
    at: placed,
  }));

  const book = new MoneyBook({ id, purchaseNumber: number, totalAmount, deposit: 0 });
  const paybill = paybillPayments(r, {
    book,
    life,
    placed,
    now,
    totalAmount,
    orderId: id,
    number,
    contact,
    clerk,
    system,
    note,
  });
  let paymentDetails: Record<string, unknown> | null = null;
  if (life.paidAt && life.method) {
    // A paybill-paid order carries the code of the payment that completed it.
    const code = paybill.lastCode ?? receiptCode(life.paidAt);
    const payer = life.method === 'Mpesa' ? (paybill.payer ?? system) : clerk;
    // Not by the paybill: the prompt's payment, or cash at the desk, is its one entry.
    if (!paybill.lastCode)
      book.pay(
        life.method === 'Mpesa'
          ? {
              kind: 'mpesa-express',
              amount: totalAmount,
              at: life.paidAt,
              code,
              payer: darajaPhone(contact.phoneNumber),
              by: MPESA_SYSTEM,
            }
          : { kind: 'cash', amount: totalAmount, at: life.paidAt, by: clerk },
      );
    paymentDetails = {
      amount: totalAmount,
      transactionCode: life.method === 'Mpesa' ? code : '',
      timePaid: life.paidAt,
      completedById: payer.id,
      completedByName: payer.fullName,
      ...(life.method === 'Mpesa' ? { receiptKey: code } : {}),
    };
    note(
      'order.payment',
      payer,
      life.paidAt,
      `${payer.fullName} recorded a ${life.method} payment of KES ${totalAmount.toLocaleString('en-US')} for order ${number}`,
    );
    text('paid', life.paidAt);
  }
  if (life.inTransitAt) {
    note(
      'order.inTransit',
      clerk,
      life.inTransitAt,
      `${clerk.fullName} marked order ${number} in transit`,
    );
    text('sent', life.inTransitAt);
  }
  if (life.deliveredAt) {
    note(
      'order.delivered',
      clerk,
      life.deliveredAt,
      `${clerk.fullName} confirmed delivery of order ${number}`,
    );
    text('delivered', life.deliveredAt);
  }
  if (life.completedAt)
    note('order.fulfil', clerk, life.completedAt, `${clerk.fullName} fulfilled order ${number}`);
  let refund: Record<string, unknown> | null = null;
  if (life.cancelledAt) {
    const who =
      life.cancelledBy === 'system'
        ? system
        : life.cancelledBy === 'staff'
          ? clerk
          : customerActor
            ? { ...customerActor, role: 'customer' as const }
            : clerk;
    const action = life.cancelledBy === 'system' ? 'order.expire' : 'order.cancel';
    note(action, who as Person, life.cancelledAt, `${who.fullName} cancelled order ${number}`);
    text('cancelled', life.cancelledAt);
    for (const l of lines)
      movements.push({
        productId: l.productId,
        productName: l.productName,
        reason: 'return',
        change: seedlingsOf(l),
        orderId: id,
        purchaseNumber: number,
        by: life.cancelledBy === 'system' ? null : { ...who },
        at: life.cancelledAt,
      });
    if (life.paidAt && life.method) {
      const reference =
        life.method === 'Mpesa' ? `R${receiptCode(life.cancelledAt)}` : 'cash given back';
      refund = {
        orderId: id,
        purchaseNumber: number,
        method: life.method,
        amount: totalAmount,
        reference,
        refundedById: clerk.id,
        refundedByName: clerk.fullName,
        refundedAt: life.cancelledAt,
        __v: 0,
      };
      book.giveBack({
        kind: life.method === 'Mpesa' ? 'mpesa-by-hand' : 'cash',
        amount: totalAmount,
        at: life.cancelledAt,
        by: clerk,
        purpose: 'refund',
        reference,
      });
    }
  }
  const lastChange = [life.cancelledAt, life.completedAt, life.deliveredAt, life.inTransitAt]
    .concat([life.paidAt, placed])
    .find((d): d is Date => !!d)!;
  const order = {
    _id,
    purchaseNumber: number,
    placedBy: contact.userId,
    ...orderContact(contact, pickup),
    products: lines,
    subtotal,
    shippingFee,
    totalAmount,
    orderStatus: life.status,
    paymentStatus: life.paidAt ? 'Paid' : 'Pending',
    fulfillmentStatus: life.completedAt ? 'Fulfilled' : 'Unfulfilled',
    paymentMethod: life.paidAt ? life.method : null,
    paymentDetails,
    paidAt: life.paidAt,
    orderDate: placed,
    estimatedDeliveryDate: new Date(placed.getTime() + 3 * DAY_MS),
    inTransitDate: life.inTransitAt,
    deliveredDate: life.deliveredAt,
    cancelledDate: life.cancelledAt,
    placement: 'placed',
    clientAddress: '198.51.100.7',
    ledgerSettled: true,
    stockReturn: life.cancelledAt ? 'cleared' : 'none',
    amountPaid: book.amountPaid,
    ...(book.credits.length ? { moneyCredits: book.credits } : {}),
    ...(book.refundOut.length ? { refundOut: book.refundOut } : {}),
    createdAt: placed,
    updatedAt: lastChange,
    __v: 0,
  };
  return {
    order,
    movements,
    audit,
    sms,
    refund,
    payments: paybill.records,
    mpesaRefunds: paybill.refunds,
    money: [...book.entries, ...paybill.inbox],
  };
}

/**
 * What the paybill left of an order (issue 30), in the shapes the API stores: each payment a
 * `mpesa_c2b_payments` record (its `_id` the TransID), credited on the order as its money-ledger
 * entry `c2b:<TransID>` (`book`), with its audit entries. Of the paid ones, most are one payment matched by the
 * account number; some by the payer's phone (a wrong account typed); a few assigned by a clerk from
 * the inbox; a few in two parts; a few over-paid, the excess sent back by B2C. An order still unpaid
 * may hold a part payment. Now and then a payment matches no order at all and waits in the inbox.
 */
function paybillPayments(
  r: Rand,
  o: {
    book: MoneyBook;
    life: Life;
    placed: Date;
    now: Date;
    totalAmount: number;
    orderId: string;
    number: string;
    contact: Contact;
    clerk: Person;
    system: Person;
    note: (action: string, who: Person, at: Date, message: string) => void;
  },
) {
  const { life, totalAmount, number, contact } = o;
  const records: Record<string, unknown>[] = [];
  const refunds: Record<string, unknown>[] = [];
  const inbox: Record<string, unknown>[] = [];
  const kes = (n: number) => `KES ${n.toLocaleString('en-US')}`;
  const record = (
    transId: string,
    amount: number,
    at: Date,
    fields: Record<string, unknown>,
  ): Record<string, unknown> => ({
    _id: transId,
    amount,
    account: number,
    phone: darajaPhone(contact.phoneNumber),
    payerName: contact.fullName.toUpperCase(),
    paidAt: at,
    shortcode: SHORTCODE,
    status: 'matched',
    reason: '',
    orderId: o.orderId,
    purchaseNumber: number,
    matchedBy: 'account',
    excess: 0,
    refundId: null,
    confirmations: 1,
    queryConversationId: `AG_${transId}`,
    queries: 1,
    lastQueriedAt: at,
    createdAt: at,
    updatedAt: at,
    ...fields,
  });
  // A payment that matched nothing: a wrong account and a phone with no open order.
  if (r() < 0.004 && o.now.getTime() - o.placed.getTime() < PAYBILL_SINCE_DAYS * DAY_MS) {
    const transId = receiptCode(o.placed);
    const account = `${pick(r, ['seedlings', 'avocado', 'order', 'SPC'])}${between(r, 1, 99)}`;
    const amount = between(r, 2, 60) * 50;
    const phone = `2547${between(r, 10_000_000, 99_999_999)}`;
    inbox.push(inboxEntry({ transId, amount, at: o.placed, payer: phone }));
    records.push(
      record(transId, amount, o.placed, {
        account,
        phone,
        payerName: `${pick(r, FIRST)} ${pick(r, LAST)}`.toUpperCase(),
        status: 'inbox',
        reason: `No open order has the account number "${account}", and no open order has the payer's phone`,
        orderId: null,
        purchaseNumber: null,
        matchedBy: null,
      }),
    );
  }
  const paidByPaybill = life.paybill && life.paidAt;
  if (!paidByPaybill && !life.partPaid)
    return { records, refunds, inbox, lastCode: undefined, payer: undefined };

  // How it was matched: the account number as typed, the payer's phone, or a clerk from the inbox.
  const how = r();
  const matchedBy = how < 0.88 ? 'account' : how < 0.96 ? 'phone' : 'staff';
  const account = matchedBy === 'account' ? number : pick(r, ['', 'seedlings', 'mbegu', '0']);
  const payer: Person = matchedBy === 'staff' ? o.clerk : o.system;
  const payments: { amount: number; at: Date }[] = [];
  const end =
    life.paidAt ?? new Date(Math.min(hours(o.placed, r() * 2).getTime(), o.now.getTime() - 1000));
  if (life.partPaid) {
    payments.push({ amount: Math.max(1, Math.round(totalAmount * (0.3 + r() * 0.4))), at: end });
  } else {
    const kind = r();
    if (kind < 0.08 && totalAmount > 1) {
      const first = Math.max(1, Math.round(totalAmount * (0.3 + r() * 0.4)));
      payments.push({ amount: first, at: new Date(end.getTime() - (1 + r() * 20) * 60 * 60_000) });
      payments.push({ amount: totalAmount - first, at: end });
    } else if (kind < 0.12) {
      payments.push({ amount: totalAmount + between(r, 1, 10) * 50, at: end });
    } else payments.push({ amount: totalAmount, at: end });
  }
  if (payments[0]!.at.getTime() < o.placed.getTime()) payments[0]!.at = hours(o.placed, 0.1);
  let credited = 0;
  let lastCode: string | undefined;
  for (const p of payments) {
    const transId = receiptCode(p.at);
    const excess =
      Math.max(0, credited + p.amount - totalAmount) - Math.max(0, credited - totalAmount);
    credited += p.amount;
    o.book.pay({
      kind: 'paybill',
      amount: p.amount,
      at: p.at,
      code: transId,
      payer: darajaPhone(contact.phoneNumber),
      by: matchedBy === 'staff' ? o.clerk : MPESA_SYSTEM,
      verified: true,
    });
    const refundId = excess > 0 ? `excess:${transId}` : null;
    records.push(
      record(transId, p.amount, p.at, {
        account,
        matchedBy,
        excess,
        refundId,
        updatedAt: matchedBy === 'staff' ? hours(p.at, 1 + r() * 6) : p.at,
      }),
    );
    if (matchedBy === 'staff')
      o.note(
        'payment.mpesa.c2b.inbox',
        o.system,
        p.at,
        `Paybill payment ${transId} of ${kes(p.amount)} (account "${account}") waits in the payments inbox: No open order has the account number "${account}", and the payer's phone has several open orders`,
      );
    const how = {
      account: 'by its account number',
      phone: "by the payer's phone",
      staff: 'assigned',
    }[matchedBy];
    if (credited < totalAmount)
      o.note(
        'order.payment.part',
        payer,
        p.at,
        `${payer.fullName} credited M-Pesa payment ${transId} of ${kes(p.amount)} to order ${number} (${how}): part-paid, ${kes(credited)} of ${kes(totalAmount)}, ${kes(totalAmount - credited)} outstanding`,
      );
    else lastCode = transId;
    if (excess > 0) {
      o.note(
        'order.payment.excess',
        payer,
        p.at,
        `Order ${number} was over-paid by ${kes(excess)} (M-Pesa ${transId}); the excess is to be refunded`,
      );
      const sentAt = hours(p.at, 2 + r() * 20);
      const sent = receiptCode(sentAt);
      o.book.giveBack({
        kind: 'b2c',
        amount: excess,
        at: sentAt,
        by: o.clerk,
        purpose: 'excess',
        reference: sent,
        id: refundId!,
        of: `c2b:${transId}`,
        transfer: refundId!,
      });
      refunds.push({
        _id: refundId,
        method: 'b2c',
        amount: excess,
        orderId: o.orderId,
        purchaseNumber: number,
        originalTransId: transId,
        phone: darajaPhone(contact.phoneNumber),
        status: 'sent',
        attempts: 1,
        originatorConversationId: `OC_${transId}`,
        conversationId: `AG_B2C_${transId}`,
        resultCode: '0',
        resultDesc: 'The service request is processed successfully.',
        transactionId: sent,
        requestedByName: o.clerk.fullName,
        claimedAt: sentAt,
        createdAt: sentAt,
        updatedAt: sentAt,
      });
    }
  }
  return { records, refunds, inbox, lastCode, payer };
}

/**
 * When each of `total` orders was placed over `days` days ending at `now`: a shop growing linearly
 * (the last day sells about three times the first), trading 07:00-19:00 in Nairobi. Oldest first.
 */
export function* orderTimes(r: Rand, total: number, days: number, now: Date): Generator<Date> {
  const weight = (d: number) => 1 + (2 * d) / Math.max(1, days - 1);
  let sum = 0;
  for (let d = 0; d < days; d++) sum += weight(d);
  const todayStart =
    Math.floor((now.getTime() + NAIROBI_OFFSET_MS) / DAY_MS) * DAY_MS - NAIROBI_OFFSET_MS;
  let made = 0;
  let carry = 0;
  for (let d = 0; d < days && made < total; d++) {
    carry += (total * weight(d)) / sum;
    const count = d === days - 1 ? total - made : Math.floor(carry);
    carry -= count;
    const dayStart = todayStart - (days - 1 - d) * DAY_MS;
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(dayStart + (7 + r() * 12) * 60 * 60 * 1000);
    times.sort((a, b) => a - b);
    for (const t of times) {
      made++;
      // Today's orders stop at now.
      yield new Date(Math.min(t, now.getTime() - (count - made) * 1000 - 1000));
    }
  }
}
