import { TILL_MESSAGES } from '@spc/shared-contracts';
import { checkPayments } from './till-payments';

describe('checkPayments', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as { getResponse(): { message: string } }).getResponse().message;
    }
    return null;
  };

  it('works out the change of cash given', () => {
    expect(checkPayments([{ method: 'cash', amount: 700, given: 1000 }], 700)).toEqual([
      { method: 'cash', amount: 700, given: 1000, change: 300, code: null, phone: null },
    ]);
  });

  it('takes cash left without `given` as handed over exactly', () => {
    expect(checkPayments([{ method: 'cash', amount: 700 }], 700)[0]).toMatchObject({
      given: 700,
      change: 0,
    });
  });

  it('splits cash and one M-Pesa payment', () => {
    const split = checkPayments(
      [
        { method: 'cash', amount: 200, given: 500 },
        { method: 'mpesa-code', amount: 500, code: 'QAB12CD34E' },
      ],
      700,
    );
    expect(split.map((p) => [p.method, p.change, p.code])).toEqual([
      ['cash', 300, null],
      ['mpesa-code', null, 'QAB12CD34E'],
    ]);
  });

  it('refuses payments that do not add up, cash short, two of a kind, a missing code', () => {
    expect(refusal(() => checkPayments([{ method: 'cash', amount: 600 }], 700))).toBe(
      TILL_MESSAGES.paymentsMismatch('KES 700'),
    );
    expect(refusal(() => checkPayments([{ method: 'cash', amount: 700, given: 600 }], 700))).toBe(
      TILL_MESSAGES.cashShort('KES 700'),
    );
    expect(
      refusal(() =>
        checkPayments(
          [
            { method: 'mpesa-code', amount: 300, code: 'QAB12CD34E' },
            { method: 'mpesa-express', amount: 400 },
          ],
          700,
        ),
      ),
    ).toBe('A sale is paid by cash, one M-Pesa payment, or both split');
    expect(refusal(() => checkPayments([{ method: 'mpesa-code', amount: 700 }], 700))).toBe(
      'The M-Pesa code the buyer shows is required',
    );
  });
});
