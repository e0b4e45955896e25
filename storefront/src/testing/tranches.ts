import type { components } from '@spc/shared-contracts';

type TrancheView = components['schemas']['TrancheDto'];
type OrderTranches = Omit<components['schemas']['OrderTranchesResponseDto'], 'success' | 'message'>;

/** Tranches as the API answers them, for the screens' tests (long names, big numbers). */
export const grevillea = {
  productId: 'p1',
  productName: 'Grevillea robusta (silky oak), nursery-raised in root trainers',
  unitId: 'u-seedling',
  unitName: 'Seedling',
  seedlings: 1,
  batchId: 'b1',
};
export const croton = {
  productId: 'p2',
  productName: 'Croton megalocarpus',
  unitId: 'u-tray',
  unitName: 'Tray of 50',
  seedlings: 50,
  batchId: null,
};

export function createTranche(overrides: Partial<TrancheView> = {}): TrancheView {
  return {
    orderId: 'ord1',
    purchaseNumber: 'SPDAB12CD34',
    lpoNumber: 'LPO/GBST/0412',
    number: 1,
    label: 'T1',
    state: 'Planned',
    date: '2027-03-20',
    site: {
      name: 'Ol Kalou Forest Station, Nyandarua County tree-growing site no. 4',
      county: 'Nyandarua',
      subCounty: 'Ol Kalou',
      contact: { name: 'Peter Mwangi', phone: '+254712345678' },
    },
    lines: [
      { ...grevillea, quantity: 120_000, dispatched: null, delivered: null, shortReason: null },
    ],
    seedlings: 120_000,
    plannedAt: '2026-11-27T08:00:00.000Z',
    changedAt: null,
    dispatchedAt: null,
    signedBy: null,
    signedAt: null,
    signedNote: null,
    recordedAt: null,
    cancelledAt: null,
    ...overrides,
  };
}

export const delivered = createTranche({
  number: 2,
  label: 'T2',
  state: 'Delivered',
  date: '2026-12-01',
  lines: [
    {
      ...croton,
      quantity: 600,
      dispatched: 600,
      delivered: 580,
      shortReason: '20 trays crushed on the Nyahururu road',
    },
  ],
  seedlings: 30_000,
  dispatchedAt: '2026-12-01T05:30:00.000Z',
  signedBy: 'Wanjiru Njoroge, forest officer',
  signedAt: '2026-12-01T11:15:00.000Z',
  recordedAt: '2026-12-01T14:00:00.000Z',
});

export const standing = (tranches: TrancheView[]): OrderTranches => ({
  orderId: 'ord1',
  purchaseNumber: 'SPDAB12CD34',
  lines: [
    {
      ...grevillea,
      quantity: 150_000,
      planned: 120_000,
      onTheWay: 0,
      delivered: 0,
      toPlan: 30_000,
    },
    { ...croton, quantity: 600, planned: 0, onTheWay: 0, delivered: 580, toPlan: 20 },
  ],
  tranches,
});
