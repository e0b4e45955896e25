import { bookingDepositSchema, newBatchSchema } from './batch-forms';

const batch = {
  productId: '6650f0c2a1b2c3d4e5f6a001',
  sownOn: '2027-01-05',
  readyOn: '2027-03-12',
  started: 500,
};

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('batch forms', () => {
  it('takes a batch ready on or after its sowing day', () => {
    expect(newBatchSchema.safeParse(batch).success).toBe(true);
    expect(newBatchSchema.safeParse({ ...batch, readyOn: batch.sownOn }).success).toBe(true);
  });

  it('refuses a ready date before the sowing date, even while other fields are missing', () => {
    expect(
      messages(newBatchSchema.safeParse({ ...batch, started: undefined, readyOn: '2027-01-04' })),
    ).toContain('The ready date cannot be before the sowing date');
  });

  it('refuses 0 or more than 1,000,000 seedlings, and fractions', () => {
    for (const started of [0, 1_000_001, 2.5])
      expect(messages(newBatchSchema.safeParse({ ...batch, started }))).toEqual([
        'Seedlings started must be a whole number from 1 to 1,000,000',
      ]);
  });

  it('takes only the exact deposit, with a transaction code', () => {
    const schema = bookingDepositSchema(4500);
    expect(schema.safeParse({ transactionCode: 'SGR4T5Y6U7', amount: 4500 }).success).toBe(true);
    expect(messages(schema.safeParse({ transactionCode: ' ', amount: 4000 }))).toEqual([
      'Transaction code is required',
      'The deposit of this booking is KES 4,500',
    ]);
  });
});
