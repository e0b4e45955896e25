import { sleep } from './wait';

/**
 * The API's rate limits and quotas count in fixed windows aligned on the clock
 * (common/rate-limit.store.ts, common/quota.ts), so a burst that straddles a window's end may pass
 * twice the limit. A test that counts up to a limit starts its burst with at least `needMs` of a
 * window left, waiting for the next window when less is left (a loaded CI machine takes seconds
 * per request).
 */
export async function earlyInAWindow(windowMs = 60_000, needMs = 40_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await sleep(left + 200);
}
