import { isPersonalKey, personalKeys } from './personal-key';

const secret = (accessSecret: string) => ({ jwt: { accessSecret } });

describe('personal keys', () => {
  const key = personalKeys(secret('a-secret-of-at-least-thirty-two-characters'));

  it('names a phone, an e-mail, an account or a network by its kind and a hash, not in clear', () => {
    const phone = key('phone:+254712345678');
    expect(phone).toMatch(/^phone:[A-Za-z0-9_-]{22}$/);
    expect(phone).not.toContain('712345678');
    expect(key('email:jane@example.com')).toMatch(/^email:[A-Za-z0-9_-]{22}$/);
    expect(key('account:65f0c0ffee0123456789abcd')).toMatch(/^account:[A-Za-z0-9_-]{22}$/);
    expect(key('net:2001:db8::/64')).toMatch(/^net:[A-Za-z0-9_-]{22}$/);
    // Without a known kind the whole key is hashed.
    expect(key('+254712345678')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('gives the same key the same hash on every instance with the secret, and another without', () => {
    const again = personalKeys(secret('a-secret-of-at-least-thirty-two-characters'));
    const other = personalKeys(secret('another-secret-of-thirty-two-characters!'));
    expect(again('phone:+254712345678')).toBe(key('phone:+254712345678'));
    expect(other('phone:+254712345678')).not.toBe(key('phone:+254712345678'));
    // The kind is part of what is hashed.
    expect(key('phone:x').slice(6)).not.toBe(key('email:x').slice(6));
  });

  it('tells a hashed key from a clear one', () => {
    for (const clear of [
      'phone:+254712345678',
      'email:jane@example.com',
      'account:65f0c0ffee0123456789abcd',
      'net:192.168.1.10',
      'net:2001:db8::/64',
      '+254712345678',
    ]) {
      expect(isPersonalKey(clear)).toBe(false);
      expect(isPersonalKey(key(clear))).toBe(true);
    }
  });
});
