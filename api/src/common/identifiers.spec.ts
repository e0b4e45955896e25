import {
  canonicalEmail,
  canonicalPhone,
  canonicalReceiptCode,
  clientNetwork,
  isReceiptCode,
} from './identifiers';

describe('canonical identifiers', () => {
  it('writes one Kenyan phone typed many ways as one E.164 number', () => {
    const spellings = [
      '0712345678',
      '+254712345678',
      '0712 345 678',
      '254712345678',
      '+254 712 345 678',
      '712345678',
      '0712-345-678',
      '+254 (0) 712 345 678',
      '\u200b0712345678',
      '０７１２３４５６７８',
    ];
    expect(new Set(spellings.map(canonicalPhone))).toEqual(new Set(['+254712345678']));
    expect(canonicalPhone('0110 123 456')).toBe('+254110123456');
    expect(canonicalPhone('+44 20 7946 0958')).toBe('+442079460958');
  });

  it('folds e-mails as the account lookup does', () => {
    expect(canonicalEmail('  Wanjiku@Example.CO.KE ')).toBe('wanjiku@example.co.ke');
  });

  it('writes a receipt code without case, blanks, punctuation or invisible characters', () => {
    const spellings = [
      'SGH7K2LP9Q',
      'sgh7k2lp9q',
      'SGH7 K2LP9Q',
      ' SGH7K2LP9Q.',
      '\u200bSGH7K2LP9Q',
      'SGH7K2LP9Q\u200d\ufeff',
      'SGH7-K2LP9Q',
      'ＳＧＨ７Ｋ２ＬＰ９Ｑ',
      'SGH7K2LP9Q\u00a0',
    ];
    expect(new Set(spellings.map(canonicalReceiptCode))).toEqual(new Set(['SGH7K2LP9Q']));
    expect(isReceiptCode(canonicalReceiptCode('SGH7K2LP9Q'))).toBe(true);
    // A Cyrillic letter that looks like a Latin one is not a receipt code.
    expect(isReceiptCode(canonicalReceiptCode('SGH7K2LP9\u0410'))).toBe(false);
    expect(isReceiptCode(canonicalReceiptCode('...'))).toBe(false);
  });

  it('counts an IPv4 client whole and an IPv6 client by its /64', () => {
    expect(clientNetwork('41.90.12.7')).toBe('41.90.12.7');
    expect(clientNetwork('::ffff:41.90.12.7')).toBe('41.90.12.7');
    const one64 = [
      '2c0f:fe38:2400:1:a::1',
      '2c0f:fe38:2400:1:ffff:ffff:ffff:ffff',
      '2C0F:FE38:2400:0001::9',
    ];
    expect(new Set(one64.map(clientNetwork))).toEqual(new Set(['2c0f:fe38:2400:1::/64']));
    expect(clientNetwork('2c0f:fe38:2400:2::1')).toBe('2c0f:fe38:2400:2::/64');
    expect(clientNetwork('not an address')).toBe('not an address');
  });
});
