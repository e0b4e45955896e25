/**
 * The till's side of being offline (issue 47): whether the browser has network, the catalogue and
 * the open session kept for a reload without it, and the queue sent when the network returns (the
 * `online` event, every 30 s, and when the till opens).
 */
import { MAX_PAGE_SIZE, TILL_MESSAGES } from '@spc/shared-contracts';
import { ApiError, unwrap } from '@spc/shared-contracts/web-client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { api, webClient } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { createSale } from '../api/sales';
import { tillKeys } from '../api/till-keys';
import type { TillProduct } from '../api/till-products';
import { forgetClerk, readCatalogue, saveCatalogue, type QueuedSale } from './offline-db';
import { flushQueue, loadOfflineQueue, useOfflineQueue, type SendAnswer } from './offline-queue';

/** How often the queue is tried again while sales wait. */
export const TILL_RETRY_MS = 30_000;

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

export const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);

/** The browser's own word on the network (`navigator.onLine`), kept current by its events. */
export const useOnline = () => useSyncExternalStore(subscribe, isOnline, () => true);

/** A failure that never reached the API (no network, DNS, a dropped connection). */
export const isNetworkError = (error: unknown) => !(error instanceof ApiError);

/** Sends one queued sale under its key, as `flushQueue` wants the answer. */
export async function sendQueuedSale(sale: QueuedSale): Promise<SendAnswer> {
  try {
    const answer = await createSale({ input: sale.input, idempotencyKey: sale.key });
    return { ok: true, sale: answer.sale };
  } catch (error) {
    if (error instanceof ApiError)
      return {
        ok: false,
        status: error.status,
        message: error.serverMessage ?? error.message,
        code: error.code,
      };
    return { ok: false, status: 0, message: 'No network' };
  }
}

/** How many pages of products the till keeps at most (MAX_PAGE_SIZE each). */
const CATALOGUE_PAGES = 30;

/** Reads the whole catalogue (products, units, prices, tiers, stock) and keeps it on the device. */
export async function refreshCatalogue() {
  const products: TillProduct[] = [];
  for (let page = 1; page <= CATALOGUE_PAGES; page++) {
    const answer = unwrap(
      await api.GET('/api/products', { params: { query: { page, limit: MAX_PAGE_SIZE } } }),
    );
    products.push(...answer.products);
    if (answer.products.length < MAX_PAGE_SIZE) break;
  }
  await saveCatalogue({ products, savedAt: new Date().toISOString() });
}

/** The kept catalogue searched by name, as the online search answers (the first `limit`). */
export async function searchCatalogue(search: string, limit: number): Promise<TillProduct[]> {
  const kept = await readCatalogue();
  const words = search.trim().toLowerCase();
  return (kept?.products ?? [])
    .filter((p) => !words || p.productName.toLowerCase().includes(words))
    .sort((a, b) => a.productName.localeCompare(b.productName))
    .slice(0, limit);
}

/**
 * Mounted by the till: reads the queue, keeps the catalogue while online, and sends the queue when
 * the till opens, when the network returns and every 30 s while sales wait.
 */
export function useOfflineSync() {
  const client = useQueryClient();
  const staffId = webClient.session.getState().user?._id;
  useEffect(() => {
    if (!staffId) return;
    let stopped = false;
    const flush = async () => {
      await loadOfflineQueue();
      if (stopped || !isOnline()) return;
      if (useOfflineQueue.getState().queue.some((s) => s.staffId === staffId)) {
        const result = await flushQueue(sendQueuedSale, staffId);
        if (result.sent > 0 || result.refused > 0) await refreshQueries(client, tillKeys.all);
      }
    };
    const keepCatalogue = () => {
      if (isOnline()) refreshCatalogue().catch(() => undefined);
    };
    const onOnline = () => {
      void flush();
      keepCatalogue();
      void refreshQueries(client, tillKeys.all);
    };
    void flush();
    keepCatalogue();
    window.addEventListener('online', onOnline);
    const timer = window.setInterval(() => void flush(), TILL_RETRY_MS);
    return () => {
      stopped = true;
      window.removeEventListener('online', onOnline);
      window.clearInterval(timer);
    };
  }, [client, staffId]);
}

/** Sign-out forgets the clerk kept for offline use (their queued sales stay: see `forgetClerk`). */
export function forgetClerkOnSignOut() {
  let hadUser = Boolean(webClient.session.getState().user);
  return webClient.session.subscribe((s) => {
    if (hadUser && !s.user) void forgetClerk().catch(() => undefined);
    hadUser = Boolean(s.user);
  });
}

export const OFFLINE_TEXTS = {
  online: 'Online',
  offline: 'Offline: sales are kept on this device',
  waiting: (n: number) => `${n} ${n === 1 ? 'sale' : 'sales'} waiting to send`,
  sending: 'Sending…',
  refused: (n: number) => `${n} ${n === 1 ? 'sale' : 'sales'} refused: see below`,
  promptOffline:
    'The M-Pesa prompt needs the network: take cash or the M-Pesa code the buyer shows',
  offlineMethods: TILL_MESSAGES.offlineMethod,
  noSessionOffline:
    'Offline, and this device has no open till session kept: open one when the network returns',
  receiptNote: 'Offline sale: its receipt number follows when sent',
} as const;
