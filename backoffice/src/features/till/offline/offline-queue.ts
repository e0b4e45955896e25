/**
 * The offline sales queue (issue 47): sales charged without network wait here, in the order they
 * were charged, each under the Idempotency-Key made when it was charged. `flushQueue` sends them
 * one at a time, in order: a made sale (2xx, a replay answers the first sale) leaves the queue; a
 * refusal (a 4xx other than 409 "in progress") moves it to the refused list with the API's words,
 * never dropped; a network error, a 5xx, a 401 (the session being renewed), a 408, a 429 or a 409
 * in progress keeps it, and the sending stops there so the order is kept, for the next try.
 */
import { TILL_MESSAGES, type TillSaleView } from '@spc/shared-contracts';
import { create } from 'zustand';
import {
  appendQueued,
  appendRefused,
  appendSent,
  prependQueued,
  readQueue,
  readRefused,
  readSent,
  removeQueued,
  removeRefused,
  type QueuedSale,
  type RefusedSale,
  type SentSale,
} from './offline-db';

/** What sending one queued sale answered: the sale made, or the status (0: no network) and words. */
export type SendAnswer =
  { ok: true; sale: TillSaleView } | { ok: false; status: number; message: string; code?: string };

export type SendSale = (sale: QueuedSale) => Promise<SendAnswer>;

interface OfflineState {
  loaded: boolean;
  queue: QueuedSale[];
  refused: RefusedSale[];
  sent: SentSale[];
  sending: boolean;
}

/** The queue as the screen shows it: a mirror of IndexedDB, read again after every change. */
export const useOfflineQueue = create<OfflineState>(() => ({
  loaded: false,
  queue: [],
  refused: [],
  sent: [],
  sending: false,
}));

/** Reads the queue, the refused and the sent sales from IndexedDB into the screen's mirror. */
export async function loadOfflineQueue() {
  const [queue, refused, sent] = await Promise.all([readQueue(), readRefused(), readSent()]);
  useOfflineQueue.setState({ loaded: true, queue, refused, sent });
}

/** Keeps a sale charged offline at the end of the queue. */
export async function enqueueSale(sale: QueuedSale) {
  await appendQueued(sale);
  await loadOfflineQueue();
}

/** The clerk has read a refusal (and dealt with it): it leaves the list. */
export async function dismissRefused(key: string) {
  await removeRefused(key);
  await loadOfflineQueue();
}

/**
 * The clerk sends a refused sale again once its cause is dealt with (an admin reopened its
 * session, say): it goes back to the queue under the same key, at the front (it was charged before
 * any sale still waiting), so it is made at most once whatever was made of it before.
 */
export async function sendRefusedAgain(key: string) {
  const sale = (await readRefused()).find((r) => r.key === key);
  if (!sale) return;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { status, message, refusedAt, ...queued } = sale;
  await prependQueued(queued);
  await removeRefused(key);
  await loadOfflineQueue();
}

/** Whether an answer leaves the sale in the queue, to try again later. */
export function isRetryable(answer: Extract<SendAnswer, { ok: false }>): boolean {
  const { status } = answer;
  if (status === 0 || status >= 500) return true;
  if (status === 401 || status === 408 || status === 429) return true;
  return (
    status === 409 &&
    (answer.code === 'IN_PROGRESS' || answer.message === TILL_MESSAGES.saleInProgress)
  );
}

export interface FlushResult {
  sent: number;
  refused: number;
  /** Sales left in the queue (a network error or the like stopped the sending). */
  left: number;
}

let flushing: Promise<FlushResult> | null = null;

/**
 * Sends the queued sales of `staffId` (the clerk signed in: another clerk's sales wait for them),
 * in order, one at a time. One sending at a time in this tab: a second call while one runs shares
 * it, so no key is sent twice at once.
 */
export function flushQueue(send: SendSale, staffId: string): Promise<FlushResult> {
  flushing ??= (async () => {
    const result: FlushResult = { sent: 0, refused: 0, left: 0 };
    useOfflineQueue.setState({ sending: true });
    try {
      for (;;) {
        const queue = (await readQueue()).filter((s) => s.staffId === staffId);
        const next = queue[0];
        if (!next) break;
        const answer = await send(next);
        if (answer.ok) {
          await appendSent({
            key: next.key,
            orderId: answer.sale.orderId,
            purchaseNumber: answer.sale.purchaseNumber,
            sentAt: new Date().toISOString(),
          });
          await removeQueued(next.key);
          result.sent++;
        } else if (isRetryable(answer)) {
          result.left = queue.length;
          break;
        } else {
          await appendRefused({
            ...next,
            status: answer.status,
            message: answer.message,
            refusedAt: new Date().toISOString(),
          });
          await removeQueued(next.key);
          result.refused++;
        }
        await loadOfflineQueue();
      }
    } finally {
      await loadOfflineQueue();
      useOfflineQueue.setState({ sending: false });
      flushing = null;
    }
    return result;
  })();
  return flushing;
}

/** Seedlings each product's queued sales take (the stock shown offline is less by them). */
export function queuedSeedlings(queue: QueuedSale[]): Map<string, number> {
  const taken = new Map<string, number>();
  for (const sale of queue)
    for (const line of sale.lines)
      taken.set(line.productId, (taken.get(line.productId) ?? 0) + line.quantity * line.seedlings);
  return taken;
}
