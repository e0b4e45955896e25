import { MPESA_MESSAGES, mpesaResultMessage, toMpesaPhone } from './mpesa';

describe('toMpesaPhone', () => {
  it.each([
    ['0712345678', '254712345678'],
    ['0712 345 678', '254712345678'],
    ['+254 712 345 678', '254712345678'],
    ['254712345678', '254712345678'],
    ['712345678', '254712345678'],
    ['0110-123-456', '254110123456'],
  ])('reads %s as %s', (typed, expected) => {
    expect(toMpesaPhone(typed)).toBe(expected);
  });

  it.each(['', '0712', '0212345678', '+1 212 555 0100', '07123456789', 'phone'])(
    'refuses %s',
    (typed) => {
      expect(toMpesaPhone(typed)).toBeNull();
    },
  );
});

describe('mpesaResultMessage', () => {
  it('explains the common Daraja result codes in the shop’s words', () => {
    expect(mpesaResultMessage(0)).toBe(MPESA_MESSAGES.paid);
    expect(mpesaResultMessage(1032, 'Request cancelled by user')).toBe(MPESA_MESSAGES.cancelled);
    expect(mpesaResultMessage(1037, 'DS timeout user cannot be reached')).toBe(
      MPESA_MESSAGES.timedOut,
    );
    expect(mpesaResultMessage(2001, 'The initiator information is invalid.')).toBe(
      MPESA_MESSAGES.wrongPin,
    );
    expect(mpesaResultMessage(1, 'The balance is insufficient for the transaction.')).toBe(
      MPESA_MESSAGES.insufficientBalance,
    );
  });

  it('passes any other result on as Daraja describes it', () => {
    expect(mpesaResultMessage(17, 'Rule limited.')).toBe('Rule limited.');
    expect(mpesaResultMessage(17, '')).toBe(MPESA_MESSAGES.unconfirmed);
  });
});
