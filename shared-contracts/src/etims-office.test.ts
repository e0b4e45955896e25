import {
  ETIMS_OFFICE_MESSAGES,
  etimsResendBody,
  etimsResendSchema,
  etimsSignatureBody,
  etimsSignatureSchema,
  nairobiLocalToIso,
} from './etims-office';

describe('the eTIMS forms', () => {
  it('resends with only what was filled in, the PIN as KRA keeps it', () => {
    expect(
      etimsResendBody(etimsResendSchema.parse({ buyerPin: ' p051234567x ', buyerName: '' })),
    ).toEqual({ buyerPin: 'P051234567X' });
    expect(
      etimsResendBody(etimsResendSchema.parse({ buyerPin: '', buyerName: ' Kiambu  County ' })),
    ).toEqual({ buyerName: 'Kiambu County' });
    expect(etimsResendBody(etimsResendSchema.parse({ buyerPin: '', buyerName: '' }))).toEqual({});
    // The buyer removed: an empty PIN, whatever the fields hold.
    expect(
      etimsResendBody(
        etimsResendSchema.parse({ buyerPin: 'P051234567X', buyerName: 'X', removeBuyer: true }),
      ),
    ).toEqual({ buyerPin: '' });
  });

  it.each(['P05123456X', 'C051234567X', 'P051 234567X'])('refuses the buyer PIN %p', (buyerPin) => {
    const parsed = etimsResendSchema.safeParse({ buyerPin, buyerName: '' });
    expect(parsed.error?.issues[0]?.message).toBe(ETIMS_OFFICE_MESSAGES.buyerPin);
  });

  it("reads the portal's time as Nairobi time, whatever the device's zone", () => {
    expect(nairobiLocalToIso('2026-11-20T10:41')).toBe('2026-11-20T07:41:00.000Z');
    expect(nairobiLocalToIso('2026-11-20T00:30:15')).toBe('2026-11-19T21:30:15.000Z');
    expect(
      etimsSignatureBody(
        etimsSignatureSchema.parse({
          cuInvoiceNumber: ' kracu0100000001/12 ',
          rcptSign: 'VZBRUTNY5NM6RKYS',
          signedAt: '2026-11-20T10:41',
          intrlData: '',
        }),
      ),
    ).toEqual({
      cuInvoiceNumber: 'KRACU0100000001/12',
      rcptSign: 'VZBRUTNY5NM6RKYS',
      signedAt: '2026-11-20T07:41:00.000Z',
    });
  });

  it('refuses a CU invoice number without its receipt number, and a short signature', () => {
    const parsed = etimsSignatureSchema.safeParse({
      cuInvoiceNumber: 'KRACU0100000001',
      rcptSign: 'ABC',
      signedAt: '',
      intrlData: '',
    });
    expect(parsed.error?.issues.map((i) => i.path[0])).toEqual([
      'cuInvoiceNumber',
      'rcptSign',
      'signedAt',
    ]);
  });
});
