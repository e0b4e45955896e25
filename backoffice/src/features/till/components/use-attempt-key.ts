import { useCallback, useRef } from 'react';

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `k${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

/**
 * The Idempotency-Key of one sale attempt: the same key while the same sale is sent again (a retry
 * after a network error makes the sale once), a new one once the sale changes or after `reset`
 * (a sale done, a new one begun).
 */
export function useAttemptKey() {
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const keyFor = useCallback((body: unknown) => {
    const text = JSON.stringify(body);
    if (attempt.current?.body !== text) attempt.current = { body: text, key: newKey() };
    return attempt.current.key;
  }, []);
  const reset = useCallback(() => {
    attempt.current = null;
  }, []);
  return { keyFor, reset };
}
