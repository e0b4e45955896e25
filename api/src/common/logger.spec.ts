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

  it('keeps no phone number or e-mail address (issue 31)', () => {
    expect(redactUrl('/api/orders?search=0712345678&page=1')).toBe(
      '/api/orders?search=[personal]&page=1',
    );
    expect(redactUrl('/api/orders?search=%2B254712345678')).toBe('/api/orders?search=[personal]');
    expect(redactUrl('/api/users?search=wanjiku%40example.co.ke&page=2')).toBe(
      '/api/users?search=[personal]&page=2',
    );
    expect(redactUrl('/api/x/wanjiku@example.co.ke/y')).toBe('/api/x/[personal]/y');
    expect(redactUrl('/api/track?purchaseNumber=SPD7K3MX9QA&phoneNumber=0712 345 678')).toBe(
      '/api/track?purchaseNumber=SPD7K3MX9QA&phoneNumber=[personal]',
    );
    expect(redactUrl('/api/orders/665f1c2b9d3e4a0012345678')).toBe(
      '/api/orders/665f1c2b9d3e4a0012345678',
    );
  });

  it('leaves other URLs as they are', () => {
    for (const url of ['/api/products?search=avocado&page=1', '/api/products/0123', '/api/keys'])
      expect(redactUrl(url)).toBe(url);
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
