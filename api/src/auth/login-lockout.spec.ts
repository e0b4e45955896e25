import { TooManyRequestsException } from '../common/rate-limit';
import { lockSeconds, refuseWhileLocked, waitText } from './login-lockout';

describe('login lockout', () => {
  const rule = { afterFailures: 5, baseSeconds: 60 };

  it('locks from the fifth wrong password, doubling after each further one, at most an hour', () => {
    expect(lockSeconds(4, rule)).toBeNull();
    expect(lockSeconds(5, rule)).toBe(60);
    expect(lockSeconds(6, rule)).toBe(120);
    expect(lockSeconds(8, rule)).toBe(480);
    expect(lockSeconds(30, rule)).toBe(3600);
  });

  it('refuses a locked sign-in with 429, the wait in words and Retry-After seconds', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(() => refuseWhileLocked(undefined, now)).not.toThrow();
    expect(() => refuseWhileLocked(new Date(now), now)).not.toThrow();
    let refused: unknown;
    try {
      refuseWhileLocked(new Date(now + 90_500), now);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TooManyRequestsException);
    expect((refused as TooManyRequestsException).retryAfterSeconds).toBe(91);
    expect((refused as TooManyRequestsException).message).toBe(
      'Too many wrong passwords for this account. Please wait 2 minutes and try again, or reset your password.',
    );
  });

  it('says how long to wait', () => {
    expect(waitText(45)).toBe('45 seconds');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(61)).toBe('2 minutes');
  });
});
