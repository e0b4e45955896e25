import { toKenyanMsisdn } from './sms';

describe('toKenyanMsisdn', () => {
  it.each([
    ['0712345678', '+254712345678'],
    ['0112 345 678', '+254112345678'],
    ['254712345678', '+254712345678'],
    ['+254 712-345-678', '+254712345678'],
    ['712345678', '+254712345678'],
  ])('reads %s as %s', (typed, expected) => {
    expect(toKenyanMsisdn(typed)).toBe(expected);
  });

  it.each(['', '0212345678', '+1 212 555 0100', '07123456789', 'phone'])('refuses %s', (typed) => {
    expect(toKenyanMsisdn(typed)).toBeNull();
  });
});
