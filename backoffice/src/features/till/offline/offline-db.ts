/**
 * What the till keeps on this device to sell offline (issue 47, docs/till-offline.md), in
 * IndexedDB through idb-keyval: it survives a reload and a closed tab, it is asynchronous (a big
 * catalogue never blocks the screen), its quota is far above localStorage's 5 MB, and a service
 * worker can read it too. One database, one object store, a few keys.
 */
import type { TillSaleInput, TillSessionView, TillPaymentInput } from '@spc/shared-contracts';
import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import type { TillProduct } from '../api/till-products';

export const OFFLINE_DB = { name: 'spc-till-offline', store: 'keyval' } as const;

const KEYS = {
  identity: 'identity',
  catalogue: 'catalogue',
  queue: 'queue',
  refused: 'refused',
  sent: 'sent',
} as const;

/** The clerk last signed in at the till, and the session they had open: the least it needs. */
export interface OfflineIdentity {
  staffId: string;
  name: string;
  role: string;
  session: TillSessionView | null;
  savedAt: string;
}

export interface OfflineCatalogue {
  products: TillProduct[];
  savedAt: string;
}

/** A line as the offline receipt prints it (the API names it once the sale is sent). */
export interface QueuedLine {
  productId: string;
  name: string;
  unitName: string;
  seedlings: number;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
}

/** A sale charged offline, waiting to be sent under its own Idempotency-Key. */
export interface QueuedSale {
  key: string;
  staffId: string;
  sellerName: string;
  input: TillSaleInput & { offline: NonNullable<TillSaleInput['offline']> };
  lines: QueuedLine[];
  payments: TillPaymentInput[];
  total: number;
  change: number;
}

/** A queued sale the API refused (a 4xx): kept with the API's words until the clerk dismisses it. */
export interface RefusedSale extends QueuedSale {
  status: number;
  message: string;
  refusedAt: string;
}

/** A queued sale the API made: its receipt number, so an offline receipt leads to the real one. */
export interface SentSale {
  key: string;
  orderId: string;
  purchaseNumber: string;
  sentAt: string;
}

let db: UseStore | null = null;
/** Opened on first use (a test's fake IndexedDB is in place by then). */
const store = () => (db ??= createStore(OFFLINE_DB.name, OFFLINE_DB.store));

/** Forgets the opened database (tests delete it between cases). */
export function closeOfflineDb() {
  db = null;
}

export const readIdentity = () => get<OfflineIdentity>(KEYS.identity, store());
export const saveIdentity = (identity: OfflineIdentity) => set(KEYS.identity, identity, store());
export const readCatalogue = () => get<OfflineCatalogue>(KEYS.catalogue, store());
export const saveCatalogue = (catalogue: OfflineCatalogue) =>
  set(KEYS.catalogue, catalogue, store());

export const readQueue = async () => (await get<QueuedSale[]>(KEYS.queue, store())) ?? [];
export const readRefused = async () => (await get<RefusedSale[]>(KEYS.refused, store())) ?? [];
export const readSent = async () => (await get<SentSale[]>(KEYS.sent, store())) ?? [];

/** Adds a sale at the end of the queue (one write: a crash never keeps half of it). */
export const appendQueued = (sale: QueuedSale) =>
  update<QueuedSale[]>(KEYS.queue, (q) => [...(q ?? []), sale], store());

/** Puts a sale back at the front of the queue (a refused sale sent again), once. */
export const prependQueued = (sale: QueuedSale) =>
  update<QueuedSale[]>(
    KEYS.queue,
    (q) => [sale, ...(q ?? []).filter((s) => s.key !== sale.key)],
    store(),
  );

export const removeQueued = (key: string) =>
  update<QueuedSale[]>(KEYS.queue, (q) => (q ?? []).filter((s) => s.key !== key), store());

export const appendRefused = (sale: RefusedSale) =>
  update<RefusedSale[]>(KEYS.refused, (r) => [...(r ?? []), sale], store());

export const removeRefused = (key: string) =>
  update<RefusedSale[]>(KEYS.refused, (r) => (r ?? []).filter((s) => s.key !== key), store());

/** How many sent sales are remembered for their offline receipts. */
export const SENT_KEPT = 50;

export const appendSent = (sale: SentSale) =>
  update<SentSale[]>(KEYS.sent, (s) => [...(s ?? []), sale].slice(-SENT_KEPT), store());

/**
 * Sign-out: the clerk's identity, session and catalogue go. Queued and refused sales stay (money
 * taken is never dropped): they are sent, under their clerk's name, when that clerk signs in again.
 */
export async function forgetClerk() {
  await del(KEYS.identity, store());
  await del(KEYS.catalogue, store());
}
