/**
 * `npm run seed:years`: fills the database at MONGODB_URI (the catalogue must be there: `npm run
 * seed` first) with years of a growing shop: orders in a realistic mix of states and payments,
 * customers with accounts and guests, lines by the seedling and by the tray (sale units, with their
 * quantity tiers), M-Pesa payments by the prompt and by the paybill (part payments, over-payments,
 * the paybill's inbox; each payment and refund an entry of the money ledger, see money.ts), batches of seedlings and bookings against them in the last 400 days (issue
 * 32: deposits, balances, releases, failed batches; see bookings.ts), and what the orders left
 * behind (stock movements, audit entries, SMS records, refunds). Written with the driver in unordered batches, in the shapes the API
 * reads; the API's indexes are made by the API when it starts.
 *
 * Settings (flags or environment): --orders / SEED_ORDERS (200000), --customers / SEED_CUSTOMERS
 * (20000, 40 % with an account), --days / SEED_DAYS (1095), --seed / SEED_RANDOM (33),
 * --batch / SEED_BATCH (5000). Prints what it wrote and how long it took.
 */
import { MongoClient, ObjectId, type AnyBulkWriteOperation, type Db, type Document } from 'mongodb';
import { isCustomerSignIn, type SaleUnit } from '@spc/shared-contracts';
import {
  buildContact,
  buildOrder,
  DAY_MS,
  orderTimes,
  rng,
  singleUnitOf,
  trayUnitOf,
  type CatalogueProduct,
  type Contact,
  type PendingMovement,
  type Person,
} from './history';
import {
  BatchBook,
  BOOKING_SHARE,
  BOOKINGS_SINCE_DAYS,
  buildBooking,
  planBatches,
} from './bookings';
import type { BookingState } from '@spc/shared-contracts';

export interface SeedYearsOptions {
  orders: number;
  customers: number;
  days: number;
  seed: number;
  batch: number;
  now?: Date;
  log?: (line: string) => void;
}

export interface SeedYearsResult {
  orders: number;
  users: number;
  movements: number;
  audit: number;
  sms: number;
  refunds: number;
  /** Paybill payment records (mpesa_c2b_payments). */
  paybill: number;
  /** Money-ledger entries (money_entries): payments in, refunds and payouts out. */
  entries: number;
  /** Batches (issue 32) by the status the API answers (Growing, Sold out, Ready, Failed). */
  batches: Record<string, number>;
  /** Booking orders by their booking's state, and how many were moved from a failed batch. */
  bookings: Partial<Record<BookingState | 'moved', number>>;
  seconds: number;
}

/**
 * Products sold by the single seedling alone get a tray (most of them: 70 %), of 50 seedlings, or 24
 * for the dearer ones, with two quantity tiers, stored as the API stores units (issue 29); products
 * that already have units keep theirs.
 */
async function sellByTheTray(
  db: Db,
  r: () => number,
  products: { _id: string; price: number; units: SaleUnit[] }[],
): Promise<void> {
  const updates: AnyBulkWriteOperation[] = [];
  for (const p of products) {
    if (p.units.length > 1) continue;
    const single = p.units[0] ?? singleUnitOf(p._id, p.price);
    p.units = r() < 0.7 ? [single, trayUnitOf(p.price, p.price > 200 ? 24 : 50)] : [single];
    updates.push({
      updateOne: { filter: { _id: new ObjectId(p._id) }, update: { $set: { units: p.units } } },
    });
  }
  if (updates.length) await db.collection('products').bulkWrite(updates, { ordered: false });
}

/** A stored password hash no password matches: the seeded people cannot sign in. */
const NO_SIGN_IN = '!seed-years: no password';
const SYSTEM: Person = { id: 'shop', fullName: 'The shop (automatic)', role: 'system' };

/** Inserts in unordered batches, a few in flight at once. */
class Writer {
  private buffers = new Map<string, Document[]>();
  private inFlight: Promise<unknown>[] = [];
  readonly counts = new Map<string, number>();
  constructor(
    private readonly db: Db,
    private readonly batch: number,
  ) {}

  async add(collection: string, doc: Document): Promise<void> {
    const buffer = this.buffers.get(collection) ?? [];
    buffer.push(doc);
    this.buffers.set(collection, buffer);
    if (buffer.length >= this.batch) await this.flush(collection);
  }

  private async flush(collection: string): Promise<void> {
    const docs = this.buffers.get(collection) ?? [];
    if (!docs.length) return;
    this.buffers.set(collection, []);
    this.counts.set(collection, (this.counts.get(collection) ?? 0) + docs.length);
    const write = this.db.collection(collection).insertMany(docs, { ordered: false });
    this.inFlight.push(write);
    if (this.inFlight.length >= 4) await this.inFlight.shift();
  }

  async close(): Promise<void> {
    for (const collection of this.buffers.keys()) await this.flush(collection);
    await Promise.all(this.inFlight);
    this.inFlight = [];
  }
}

/** Each product's ledger numbered in order, restocked before it would go below zero. */
class Ledgers {
  private state = new Map<string, { seq: number; qty: number }>();
  constructor(
    private readonly writer: Writer,
    private readonly storekeeper: Person,
  ) {}

  /** A product's ledger from its last movement (`seq`), which left it holding `qty`. */
  start(productId: string, seq: number, qty: number): void {
    this.state.set(productId, { seq, qty });
  }

  async move(m: PendingMovement): Promise<void> {
    const s = this.state.get(m.productId)!;
    if (s.qty + m.change < 0) {
      const change = Math.max(1000, -m.change);
      s.qty += change;
      s.seq += 1;
      await this.writer.add('stock_movements', {
        _id: new ObjectId().toHexString(),
        productId: m.productId,
        productName: m.productName,
        seq: s.seq,
        reason: 'restock',
        change,
        quantityAfter: s.qty,
        note: 'Seedlings from the propagation beds',
        by: { ...this.storekeeper },
        orderId: null,
        purchaseNumber: null,
        at: new Date(m.at.getTime() - 60_000),
      });
    }
    s.qty += m.change;
    s.seq += 1;
    await this.writer.add('stock_movements', {
      _id: new ObjectId().toHexString(),
      ...m,
      seq: s.seq,
      quantityAfter: s.qty,
      note: m.note ?? '',
    });
  }

  /** A closing count to each product's stock now, so the ledger ends where the product is. */
  async close(db: Db, now: Date, products: (CatalogueProduct & { stock: number })[]) {
    const updates: AnyBulkWriteOperation[] = [];
    for (const p of products) {
      const s = this.state.get(p._id)!;
      if (s.qty !== p.stock) {
        s.seq += 1;
        await this.writer.add('stock_movements', {
          _id: new ObjectId().toHexString(),
          productId: p._id,
          productName: p.productName,
          seq: s.seq,
          reason: 'correction',
          change: p.stock - s.qty,
          quantityAfter: p.stock,
          note: 'Stock count',
          by: { ...this.storekeeper },
          orderId: null,
          purchaseNumber: null,
          at: now,
        });
      }
      updates.push({
        updateOne: { filter: { _id: new ObjectId(p._id) }, update: { $set: { stockSeq: s.seq } } },
      });
    }
    if (updates.length) await db.collection('products').bulkWrite(updates, { ordered: false });
  }
}

export async function seedYears(db: Db, options: SeedYearsOptions): Promise<SeedYearsResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const r = rng(options.seed);
  const writer = new Writer(db, options.batch);

  const products = (
    await db
      .collection('products')
      .find({ price: { $gt: 0 } })
      .project({
        productName: 1,
        productImage: 1,
        price: 1,
        productQuantity: 1,
        stockSeq: 1,
        units: 1,
      })
      .toArray()
  ).map((p) => ({
    _id: String(p._id),
    productName: String(p.productName),
    productImage: String(p.productImage ?? ''),
    price: Number(p.price),
    stock: Number(p.productQuantity ?? 0),
    seq: Number(p.stockSeq ?? 0),
    units: (p.units ?? []) as SaleUnit[],
  }));
  if (!products.length) throw new Error('no products in the database: run `npm run seed` first');
  await sellByTheTray(db, r, products);

  // The people: six clerks and the customers (40 % with an account, the rest guests).
  const staff: Person[] = [];
  const since = new Date(now.getTime() - options.days * DAY_MS);
  for (let i = 1; i <= 6; i++) {
    const _id = new ObjectId();
    const fullName = `Clerk ${['Wanjiku', 'Otieno', 'Chebet', 'Mutua', 'Njeri', 'Kiprop'][i - 1]}`;
    staff.push({ id: _id.toHexString(), fullName, role: 'staff' });
    await writer.add('users', {
      _id,
      fullName,
      email: `clerk${i}@seed-years.example.co.ke`,
      phoneNumber: `+2547200000${i}0`,
      passwordHash: NO_SIGN_IN,
      role: 'staff',
      isActive: true,
      county: 'Kiambu',
      streetAddress: 'Seedling Propagation Centre',
      smsNotifications: true,
      profilePicture: '',
      profilePictureKeys: [],
      tokenVersion: 0,
      failedLogins: 0,
      lockedUntil: null,
      createdAt: since,
      updatedAt: since,
      __v: 0,
    });
  }
  const contacts: Contact[] = [];
  for (let i = 0; i < options.customers; i++) {
    const account = r() < 0.4;
    const _id = new ObjectId();
    const contact = buildContact(r, i, account ? _id.toHexString() : null);
    contacts.push(contact);
    if (account) {
      const joined = new Date(since.getTime() + r() * (now.getTime() - since.getTime()) * 0.8);
      await writer.add('users', {
        _id,
        fullName: contact.fullName,
        email: contact.email,
        phoneNumber: contact.phoneNumber,
        passwordHash: NO_SIGN_IN,
        role: 'customer',
        isActive: true,
        county: contact.county,
        streetAddress: contact.streetAddress,
        smsNotifications: r() < 0.9,
        profilePicture: '',
        profilePictureKeys: [],
        tokenVersion: 0,
        failedLogins: 0,
        lockedUntil: null,
        createdAt: joined,
        updatedAt: joined,
        __v: 0,
      });
    }
  }

  const ledgers = new Ledgers(writer, staff[0]!);
  // A product with movements already (the catalogue's seed) holds its stock on its ledger.
  for (const p of products) ledgers.start(p._id, p.seq, p.seq > 0 ? p.stock : 0);

  // Batches (issue 32) and their bookings, from a random stream of their own.
  const rb = rng(options.seed + 32);
  const book = new BatchBook(planBatches(rb, products, now, options.days, staff));
  const bookingsFrom = now.getTime() - BOOKINGS_SINCE_DAYS * DAY_MS;
  const bookings: Partial<Record<BookingState | 'moved', number>> = {};

  let made = 0;
  let lastDay = -1;
  for (const placed of orderTimes(r, options.orders, options.days, now)) {
    // Repeat customers: a few buy often, most now and then.
    const contact = contacts[Math.floor(contacts.length * r() * r())]!;
    const open =
      placed.getTime() > bookingsFrom && rb() < BOOKING_SHARE ? book.bookable(placed) : [];
    const booked = open.length
      ? buildBooking(
          rb,
          placed,
          now,
          contact,
          open[Math.floor(rb() * open.length)]!,
          book,
          staff,
          SYSTEM,
        )
      : null;
    if (booked) bookings[booked.bookingState] = (bookings[booked.bookingState] ?? 0) + 1;
    if (booked?.moved) bookings.moved = (bookings.moved ?? 0) + 1;
    const built = booked ?? buildOrder(r, placed, now, contact, products, staff, SYSTEM);
    await writer.add('orders', built.order);
    for (const m of built.movements) await ledgers.move(m);
    for (const a of built.audit) await writer.add('audit_logs', auditEntry(a));
    for (const s of built.sms) await writer.add('sms_outbox', s);
    if (built.refund) await writer.add('order_refunds', built.refund);
    for (const p of built.payments) await writer.add('mpesa_c2b_payments', p);
    for (const m of built.mpesaRefunds) await writer.add('mpesa_refunds', m);
    for (const e of built.money) await writer.add('money_entries', e);
    // Each clerk signs in on the days the shop trades.
    const day = Math.floor(placed.getTime() / DAY_MS);
    if (day !== lastDay) {
      lastDay = day;
      for (const clerk of staff)
        await writer.add('audit_logs', {
          customerSignIn: false,
          _id: new ObjectId(),
          action: 'auth.login',
          message: `${clerk.fullName} signed in`,
          performedBy: { ...clerk },
          target: { type: 'user', id: clerk.id, label: clerk.fullName },
          timestamp: new Date(day * DAY_MS + 4 * 60 * 60 * 1000),
        });
    }
    made++;
    if (made % 20_000 === 0)
      log(
        `${made.toLocaleString('en-US')} orders (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  // The batches as they stand now, their ledgers, and what they gave the products' ready stock.
  const finished = book.finish();
  for (const b of finished.batches) await writer.add('batches', b);
  for (const m of finished.movements) await writer.add('stock_movements', m);
  for (const a of finished.audit) await writer.add('audit_logs', auditEntry(a));
  for (const m of finished.productMovements.sort((a, b) => a.at.getTime() - b.at.getTime()))
    await ledgers.move(m);
  await ledgers.close(db, now, products);
  await writer.close();
  // The orders were written behind the API's back, with their own past `updatedAt`: the rollups
  // kept from the orders (the sales days, the order counts) are rebuilt whole on their next read.
  for (const state of ['sales_rollup_state', 'order_count_state'])
    await db.collection(state).deleteMany({});
  const count = (name: string) => writer.counts.get(name) ?? 0;
  return {
    orders: count('orders'),
    users: count('users'),
    movements: count('stock_movements'),
    audit: count('audit_logs'),
    sms: count('sms_outbox'),
    refunds: count('order_refunds'),
    paybill: count('mpesa_c2b_payments'),
    entries: count('money_entries'),
    batches: finished.byStatus,
    bookings,
    seconds: (Date.now() - started) / 1000,
  };
}

/** "12 batches (3 Growing, 8 Ready, 1 Failed), 640 bookings (20 Deposit due, ...; 4 moved ...)". */
export function describeBatches(result: Pick<SeedYearsResult, 'batches' | 'bookings'>): string {
  const list = (counts: Record<string, number | undefined>) =>
    Object.entries(counts)
      .filter(([, n]) => n)
      .map(([k, n]) => `${n!.toLocaleString('en-US')} ${k}`)
      .join(', ');
  const sum = (counts: Record<string, number | undefined>) =>
    Object.values(counts).reduce<number>((n, v) => n + (v ?? 0), 0);
  const { moved, ...states } = result.bookings;
  return (
    `${sum(result.batches)} batches (${list(result.batches)}), ` +
    `${sum(states).toLocaleString('en-US')} bookings (${list(states)}; ${moved ?? 0} moved from a failed batch)`
  );
}

function setting(flag: string, env: string, fallback: number): number {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${flag}`);
  const raw = at >= 0 ? args[at + 1] : process.env[env];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${flag} must be a whole number`);
  return value;
}

async function main(): Promise<void> {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set (npm run seed:years starts a database)');
  const options: SeedYearsOptions = {
    orders: setting('orders', 'SEED_ORDERS', 200_000),
    customers: setting('customers', 'SEED_CUSTOMERS', 20_000),
    days: setting('days', 'SEED_DAYS', 3 * 365),
    seed: setting('seed', 'SEED_RANDOM', 33),
    batch: setting('batch', 'SEED_BATCH', 5000),
    log: (line) => console.log(`[seed:years] ${line}`),
  };
  const client = await MongoClient.connect(uri);
  try {
    const result = await seedYears(client.db(), options);
    console.log(
      `[seed:years] ${result.orders.toLocaleString('en-US')} orders, ${result.users.toLocaleString('en-US')} accounts, ` +
        `${result.movements.toLocaleString('en-US')} stock movements, ${result.audit.toLocaleString('en-US')} audit entries, ` +
        `${result.sms.toLocaleString('en-US')} SMS records, ${result.refunds.toLocaleString('en-US')} refunds, ${result.paybill.toLocaleString('en-US')} paybill payments, ` +
        `${result.entries.toLocaleString('en-US')} money entries, ` +
        `${describeBatches(result)} in ${result.seconds.toFixed(1)} s`,
    );
  } finally {
    await client.close();
  }
}

if (require.main === module) {
  main().catch((error: Error) => {
    console.error(`[seed:years] ${error.message}`);
    process.exit(1);
  });
}

/** An entry as the API writes it: with `customerSignIn`, which the trail's screen hides by. */
function auditEntry(entry: Record<string, unknown>): Record<string, unknown> {
  return { ...entry, customerSignIn: isCustomerSignIn(entry as { action: string }) };
}
