import { isPdf, scanFileKind } from './scan-content';

const pdf = (body = '1 0 obj<<>>endobj\n') => Buffer.from(`%PDF-1.7\n${body}trailer<<>>\n%%EOF\n`);

describe('scanFileKind', () => {
  it('knows a PDF by its header at the first byte and its %%EOF at the end', () => {
    expect(scanFileKind(pdf())).toBe('pdf');
    expect(isPdf(Buffer.from('%PDF-2.0\n%%EOF'))).toBe(true);
  });

  it('refuses a header after other bytes (an HTML page passing for a PDF), or none', () => {
    expect(isPdf(Buffer.concat([Buffer.from('<html><script>x()</script>'), pdf()]))).toBe(false);
    expect(isPdf(Buffer.concat([Buffer.from(' '), pdf()]))).toBe(false);
    expect(isPdf(Buffer.from('%PDF-x.y\n%%EOF'))).toBe(false);
    expect(scanFileKind(Buffer.from('LPO 114 for 300 seedlings'))).toBeUndefined();
    expect(scanFileKind(Buffer.alloc(0))).toBeUndefined();
  });

  it('refuses a PDF cut short: no %%EOF in its last 2 KB', () => {
    const whole = pdf('x'.repeat(10_000));
    expect(isPdf(whole)).toBe(true);
    expect(isPdf(whole.subarray(0, 5_000))).toBe(false);
    expect(isPdf(Buffer.concat([whole, Buffer.alloc(3_000, 0x20)]))).toBe(false);
  });

  it('knows a photo by its magic bytes, whatever it claims to be', () => {
    expect(scanFileKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('photo');
    expect(scanFileKind(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('photo');
    expect(scanFileKind(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('photo');
    expect(scanFileKind(Buffer.from('GIF89a'))).toBeUndefined();
  });
});
