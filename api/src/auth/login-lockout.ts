import { TooManyRequestsException } from '../common/rate-limit';

/** "45 seconds", "3 minutes": how long a client is asked to wait. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** Refuses (429 with Retry-After) a sign-in to an account whose lock has not run out yet. */
export function refuseWhileLocked(lockedUntil: Date | undefined | null, now: number): void {
  if (!lockedUntil || lockedUntil.getTime() <= now) return;
  const seconds = Math.ceil((lockedUntil.getTime() - now) / 1000);
  throw new TooManyRequestsException(
    `Too many wrong passwords for this account. Please wait ${waitText(seconds)} and try again, or reset your password.`,
    seconds,
  );
}

/**
 * How long the sign-in stays locked after `failures` wrong passwords in a row: nothing before
 * `afterFailures`, then `baseSeconds`, doubled after each further wrong one, at most an hour.
 */
export function lockSeconds(
  failures: number,
  rule: { afterFailures: number; baseSeconds: number },
): number | null {
  if (failures < rule.afterFailures) return null;
  return Math.min(3600, rule.baseSeconds * 2 ** (failures - rule.afterFailures));
}
