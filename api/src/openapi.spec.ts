import { asciiDigits } from './openapi';

describe('asciiDigits', () => {
  it('spells \\d as 0-9, inside character classes too, and leaves other escapes', () => {
    expect(asciiDigits('^\\+?\\d[\\d -]{7,}\\d$')).toBe('^\\+?[0-9][0-9 -]{7,}[0-9]$');
    expect(asciiDigits('^\\S\\.\\\\d$')).toBe('^\\S\\.\\\\d$');
  });

  it('gives patterns that accept the same ASCII texts', () => {
    const original = /^\+?\d[\d -]{7,}\d$/;
    const spelled = new RegExp(asciiDigits(original.source));
    for (const text of ['0712 345 678', '+254712345678', '07-12', 'abc', '٠٧١٢٣٤٥٦٧٨'])
      expect(spelled.test(text)).toBe(original.test(text));
  });
});
