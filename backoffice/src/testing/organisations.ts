/** Organisations as the API answers them, for the screens' tests. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const ORG_ID = '6650f0c2a1b2c3d4e5f6c001';
export const PRODUCT_ID = '6650f0c2a1b2c3d4e5f6d001';
export const UNIT_ID = '6650f0c2a1b2c3d4e5f6e001';

export function createOrganisation(overrides: Record<string, unknown> = {}) {
  return {
    _id: ORG_ID,
    name: 'Kiambu County Government',
    kraPin: 'P051234567X',
    kind: 'county',
    status: 'pending',
    statusReason: '',
    billingContact: { name: 'Grace Wambui', phone: '0712345678', email: 'grace@kiambu.go.ke' },
    deliveryContact: { name: 'Peter Njoroge', phone: '0722345678', email: 'peter@kiambu.go.ke' },
    terms: { paymentDays: 30, creditLimit: 0, onAccount: false, invoicing: 'perTranche' },
    priceList: { discountPercent: 0, prices: [] },
    people: [
      {
        accountId: '6650f0c2a1b2c3d4e5f6a001',
        fullName: 'Grace Wambui',
        email: 'grace@kiambu.go.ke',
        role: 'approver',
        joinedAt: '2026-11-20T08:00:00.000Z',
      },
    ],
    invitations: [],
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    ...overrides,
  };
}

export const CATALOGUE = {
  success: true,
  message: '',
  products: [
    {
      _id: PRODUCT_ID,
      productName: 'Grevillea robusta',
      units: [
        { _id: UNIT_ID, name: 'Seedling', seedlings: 1, price: 30 },
        { _id: '6650f0c2a1b2c3d4e5f6e002', name: 'Tray of 50', seedlings: 50, price: 1400 },
      ],
    },
  ],
  totalProducts: 1,
  totalPages: 1,
};
