import { TILL_MESSAGES } from './till';
import {
  closeTillSchema,
  openTillSchema,
  TILL_FORM_MESSAGES,
  tillPinSchema,
  tillRefundSchema,
  tillVoidSchema,
} from './till-forms';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

const approval = { approverId: '6650f0c2a1b2c3d4e5f6d002', pin: '1234', reason: 'Wrong tray' };

describe('till forms', () => {
  it('takes a float and a count of whole shillings from 0, nothing else', () => {
    expect(openTillSchema().safeParse({ float: 0 }).success).toBe(true);
    for (const float of [-1, 2.5, undefined])
      expect(messages(openTillSchema().safeParse({ float }))).toEqual([TILL_FORM_MESSAGES.float]);
    expect(messages(closeTillSchema().safeParse({ countedCash: -5 }))).toEqual([
      TILL_FORM_MESSAGES.countedCash,
    ]);
  });

  it('takes a PIN of 4 to 6 digits only, in the API’s words', () => {
    for (const pin of ['1234', '123456'])
      expect(tillPinSchema().safeParse({ pin, currentPassword: 'x' }).success).toBe(true);
    for (const pin of ['123', '1234567', '12a4', ' 1234'])
      expect(messages(tillPinSchema().safeParse({ pin, currentPassword: 'x' }))).toEqual([
        TILL_MESSAGES.pinForm,
      ]);
  });

  it('asks a void for its approver, a PIN and a reason', () => {
    expect(tillVoidSchema().safeParse(approval).success).toBe(true);
    expect(messages(tillVoidSchema().safeParse({ approverId: '', pin: '', reason: '  ' }))).toEqual(
      [TILL_FORM_MESSAGES.approver, TILL_MESSAGES.pinForm, TILL_FORM_MESSAGES.reason],
    );
  });

  it('refunds at least KES 1 and no more than what is left', () => {
    expect(tillRefundSchema(4000).safeParse({ ...approval, amount: 4000 }).success).toBe(true);
    expect(messages(tillRefundSchema(4000).safeParse({ ...approval, amount: 4001 }))).toEqual([
      TILL_MESSAGES.refundAboveSale('KES 4,000'),
    ]);
    expect(messages(tillRefundSchema(4000).safeParse({ ...approval, amount: 0 }))).toEqual([
      TILL_FORM_MESSAGES.refundAmount,
    ]);
  });
});
