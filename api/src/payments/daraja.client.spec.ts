import { darajaTimestamp, parseDarajaTimestamp } from './daraja.client';
import { parseMpesaCallback } from './mpesa-callback';

describe('Daraja timestamps', () => {
  it('are written in Nairobi time (UTC+3) and read back to the same instant', () => {
    const at = new Date('2026-11-22T21:30:05.000Z');
    expect(darajaTimestamp(at)).toBe('20261123003005');
    expect(parseDarajaTimestamp(20261123003005)?.toISOString()).toBe(at.toISOString());
    expect(parseDarajaTimestamp('not a date')).toBeNull();
    expect(parseDarajaTimestamp(undefined)).toBeNull();
  });
});

describe('parseMpesaCallback', () => {
  it('reads the amount, receipt and date of a success', () => {
    expect(
      parseMpesaCallback({
        Body: {
          stkCallback: {
            MerchantRequestID: '29115-34620561-1',
            CheckoutRequestID: 'ws_CO_191220191020363925',
            ResultCode: 0,
            ResultDesc: 'The service request is processed successfully.',
            CallbackMetadata: {
              Item: [
                { Name: 'Amount', Value: 1.0 },
                { Name: 'MpesaReceiptNumber', Value: 'NLJ7RT61SV' },
                { Name: 'Balance' },
                { Name: 'TransactionDate', Value: 20191219102115 },
                { Name: 'PhoneNumber', Value: 254708374149 },
              ],
            },
          },
        },
      }),
    ).toEqual({
      checkoutRequestId: 'ws_CO_191220191020363925',
      resultCode: 0,
      resultDesc: 'The service request is processed successfully.',
      amount: 1,
      receipt: 'NLJ7RT61SV',
      transactionDate: new Date('2019-12-19T07:21:15.000Z'),
    });
  });

  it('reads a failure, which carries no metadata, and refuses what is not a callback', () => {
    expect(
      parseMpesaCallback({
        Body: {
          stkCallback: {
            MerchantRequestID: 'm',
            CheckoutRequestID: 'ws_CO_1',
            ResultCode: '1032',
            ResultDesc: 'Request cancelled by user',
          },
        },
      }),
    ).toMatchObject({ resultCode: 1032, amount: null, receipt: null, transactionDate: null });
    expect(parseMpesaCallback({ Body: {} })).toBeNull();
    expect(parseMpesaCallback('x')).toBeNull();
  });
});
