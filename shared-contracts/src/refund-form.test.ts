import { REFUND_MESSAGES, refundFormSchema } from './refund-form';

const errors = (paid: number, input: unknown) => {
  const r = refundFormSchema(paid).safeParse(input);
  return r.success
    ? {}
    : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('refund form', () => {
  it('accepts a cash refund of the amount paid, with or without a note', () => {
    expect(refundFormSchema(2400).parse({ method: 'Cash', amount: 2400, reference: '' })).toEqual({
      method: 'Cash',
      amount: 2400,
      reference: '',
    });
  });

  it('asks for the method, with the API text', () => {
    expect(errors(2400, { method: '', amount: 2400, reference: '' })).toEqual({
      method: 'Refund method must be one of Cash, Mpesa',
    });
  });

  it('refuses an amount other than the amount paid, naming it', () => {
    expect(errors(12400, { method: 'Cash', amount: 1000, reference: '' })).toEqual({
      amount: 'The refund must be the amount paid, KES 12,400',
    });
    expect(errors(2400, { method: 'Cash', amount: 12.5, reference: '' }).amount).toBe(
      REFUND_MESSAGES.amountWhole,
    );
    expect(errors(2400, { method: 'Cash', amount: undefined, reference: '' }).amount).toBe(
      REFUND_MESSAGES.amountWhole,
    );
  });

  it('needs the reversal code for M-Pesa, trimmed, at most 60 characters', () => {
    expect(errors(2400, { method: 'Mpesa', amount: 2400, reference: '   ' })).toEqual({
      reference: 'An M-Pesa refund needs its reference (the reversal or transaction code)',
    });
    expect(errors(2400, { method: 'Mpesa', amount: 2400, reference: 'x'.repeat(61) })).toEqual({
      reference: 'Refund reference must be at most 60 characters',
    });
    expect(
      refundFormSchema(2400).parse({ method: 'Mpesa', amount: 2400, reference: ' SGR4T5Y6U7 ' })
        .reference,
    ).toBe('SGR4T5Y6U7');
  });
});
