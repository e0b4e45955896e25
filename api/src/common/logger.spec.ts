import { redactUrl } from './logger';

describe('redactUrl', () => {
  it('hides the secrets a URL can carry', () => {
    expect(redactUrl('/api/payments/mpesa/callback/s3cr3t-token?x=1')).toBe(
      '/api/payments/mpesa/callback/[redacted]?x=1',
    );
    expect(redactUrl('/authenticate/resetPassword/abc123')).toBe(
      '/authenticate/resetPassword/[redacted]',
    );
    expect(redactUrl('/api/auth/reset-password/abc123')).toBe(
      '/api/auth/reset-password/[redacted]',
    );
    expect(redactUrl('/api/orders/receipt.pdf?token=abc&x=1&KEY=k&code=9&refreshToken=r')).toBe(
      '/api/orders/receipt.pdf?token=[redacted]&x=1&KEY=[redacted]&code=[redacted]&refreshToken=[redacted]',
    );
    expect(redactUrl('/api/x?password=hunter2')).toBe('/api/x?password=[redacted]');
    expect(redactUrl('/api/orders/abc/receipt.pdf?expires=1790000000&signature=s1g-n_d')).toBe(
      '/api/orders/abc/receipt.pdf?expires=1790000000&signature=[redacted]',
    );
  });

  it('leaves other URLs as they are', () => {
    for (const url of ['/api/products?search=avocado&page=1', '/api/products/0123', '/api/keys'])
      expect(redactUrl(url)).toBe(url);
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
