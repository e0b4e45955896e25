/**
 * Typed test data: each factory answers what the API sends, typed by the generated OpenAPI
 * document (shared-contracts/src/generated/api-types.ts), with the test's overrides on top.
 * A field the API renames or drops fails the typecheck of the tests that use it.
 */
import type { components } from '@spc/shared-contracts';
import type { Order } from '../features/orders/api/get-orders';
import type { LowStock } from '../lib/low-stock';

export type LowStockItem = LowStock['products'][number];

/** An order as the API lists it: a customer's, pending and unpaid unless told. */
export function createOrder(overrides: Partial<Order> = {}): Order {
  return {
    _id: '6650f0c2a1b2c3d4e5f60001',
    purchaseNumber: 'SPDBMUYD9PD',
    amountPaid: 0,
    amountOutstanding: 0,
    excessPaid: 0,
    amountDueNow: 0,
    onAccount: false,
    inTranches: false,
    placedBy: {
      _id: '6650f0c2a1b2c3d4e5f60009',
      fullName: 'Kamau Mwangi',
      email: 'kamau@example.co.ke',
    },
    customerName: 'Kamau Mwangi',
    guestInfo: {
      fullName: 'Kamau Mwangi',
      phoneNumber: '0722000111',
      email: 'kamau@example.co.ke',
      county: 'Kiambu',
      subCounty: 'Ruiru',
      ward: 'Gitothua',
      streetAddress: 'Kamakis, near the stage',
    },
    products: [
      {
        product: { _id: 'p1', productName: 'Terere (Amaranth) Tray of 200', productImage: '' },
        productName: 'Terere (Amaranth) Tray of 200',
        productImage: '',
        unitPrice: 1270,
        quantity: 1,
        lineTotal: 1270,
        unit: { _id: 'p1', name: 'Single seedling', seedlings: 1 },
        tier: null,
      },
    ],
    subtotal: 1270,
    shippingFee: 0,
    delivery: { method: 'collection', zoneName: 'Collect at the nursery', days: 1 },
    totalAmount: 1270,
    orderStatus: 'Pending',
    paymentStatus: 'Pending',
    fulfillmentStatus: 'Unfulfilled',
    paymentMethod: null,
    paymentDetails: null,
    paidAt: null,
    orderDate: '2026-11-22T07:30:00.000Z',
    estimatedDeliveryDate: '2026-11-25T07:30:00.000Z',
    inTransitDate: null,
    deliveredDate: null,
    cancelledDate: null,
    createdAt: '2026-11-22T07:30:00.000Z',
    updatedAt: '2026-11-22T07:30:00.000Z',
    booking: null,
    ...overrides,
  };
}

export function createLowStockItem(overrides: Partial<LowStockItem> = {}): LowStockItem {
  return {
    _id: 'a1',
    productName: 'Avocado Hass',
    productQuantity: 2,
    threshold: 5,
    level: 'low',
    inUnits: '',
    ...overrides,
  };
}

/** GET /api/stock/low's answer: the counts follow the items unless told. */
export function createLowStockList(
  products: LowStockItem[],
  overrides: Partial<LowStock> = {},
): LowStock {
  return {
    success: true,
    message: 'Low stock retrieved',
    products,
    defaultThreshold: 5,
    lowCount: products.filter((p) => p.level === 'low').length,
    outCount: products.filter((p) => p.level === 'out').length,
    ...overrides,
  };
}

/** A batch as GET /api/batches lists it: growing, 500 started, none lost or booked unless told. */
export function createBatch(overrides: Record<string, unknown> = {}) {
  return {
    _id: '6650f0c2a1b2c3d4e5f6b001',
    productId: '6650f0c2a1b2c3d4e5f6a001',
    productName: 'Avocado Hass',
    sownOn: '2027-01-05',
    readyOn: '2027-03-12',
    started: 500,
    lost: 0,
    booked: 0,
    available: 500,
    quantity: 500,
    status: 'Growing',
    readyAt: null,
    failedAt: null,
    note: '',
    createdAt: '2027-01-05T07:00:00.000Z',
    bookings: 0,
    ...overrides,
  };
}

/** A booking order's `booking`: deposit due on a growing batch unless told. */
export function createBooking(overrides: Record<string, unknown> = {}) {
  return {
    batchId: '6650f0c2a1b2c3d4e5f6b001',
    productName: 'Avocado Hass',
    readyOn: '2027-03-12',
    depositPercent: 30,
    deposit: 4500,
    balance: 10500,
    state: 'Deposit due',
    depositPaidAt: null,
    depositReceipt: null,
    readyAt: null,
    balanceDueBy: null,
    balancePaidAt: null,
    releasedAt: null,
    releaseDecision: null,
    problem: null,
    movedFromBatchId: null,
    fulfilledAt: null,
    ...overrides,
  };
}

export type MoneyEntry = components['schemas']['MoneyEntryViewDto'];
export type OrderMoney = components['schemas']['OrderMoneyDto'];

/** One money-ledger entry of an order: a KES 1,270 M-Pesa payment typed at the desk unless told. */
export function createMoneyEntry(overrides: Partial<MoneyEntry> = {}): MoneyEntry {
  return {
    id: 'desk:SGR4T5Y6U7',
    direction: 'in',
    kind: 'desk-mpesa',
    amount: 1270,
    code: 'SGR4T5Y6U7',
    reference: '',
    at: '2026-11-22T08:00:00.000Z',
    state: 'credited',
    payer: null,
    by: { fullName: 'Wanjiru Staff', role: 'staff' },
    of: null,
    returned: 0,
    split: null,
    ...overrides,
  };
}

/** An order's money: the totals follow the entries unless told. */
export function createOrderMoney(
  entries: MoneyEntry[] = [],
  overrides: Partial<OrderMoney> = {},
): OrderMoney {
  const sum = (direction: 'in' | 'out') =>
    entries.filter((e) => e.direction === direction).reduce((n, e) => n + e.amount, 0);
  const received = sum('in');
  const refunded = sum('out');
  return { received, refunded, refundable: received - refunded, entries, ...overrides };
}

type Product = components['schemas']['ProductDto'];
type ProductTax = components['schemas']['ProductTaxDto'];

/** A product as the catalogue shows it: 350 KES, 40 in stock, its single seedling and a tray. */
export function createProduct(overrides: Partial<Product> = {}): Product {
  const _id = overrides._id ?? '6650f0c2a1b2c3d4e5f6a001';
  const unit = {
    name: 'Single seedling',
    seedlings: 1,
    price: 350,
    offerPrice: 0,
    sku: '',
    minQuantity: 1,
    step: 1,
    tiers: [],
  };
  return {
    _id,
    productName: 'Kale Sukuma Wiki',
    productDescription: 'Hardened off and ready to transplant',
    price: 350,
    initialPrice: 350,
    offerPrice: 0,
    onOffer: false,
    effectivePrice: 350,
    productQuantity: 40,
    units: [
      { ...unit, _id },
      { ...unit, _id: '6650f0c2a1b2c3d4e5f6a0aa', name: 'Tray of 50', seedlings: 50, price: 1500 },
    ],
    fromPrice: 30,
    category: { _id: '6650f0c2a1b2c3d4e5f6000a', name: 'Vegetables' },
    productImage: '',
    productImages: {},
    batches: [],
    createdAt: '2026-11-01T07:00:00.000Z',
    updatedAt: '2026-11-01T07:00:00.000Z',
    ...overrides,
  };
}

/** A product's tax as staff read it: its own type E, the tray exempt (A), the shop default B. */
export function createProductTax(
  product: Product,
  overrides: Partial<ProductTax> = {},
): ProductTax {
  return {
    productId: product._id,
    taxType: 'E',
    itemClassCode: '5059690800',
    shopDefaultTaxType: 'B',
    effectiveTaxType: 'E',
    units: product.units.map((u, i) => ({
      _id: u._id,
      name: u.name,
      taxType: i === 1 ? 'A' : null,
      effectiveTaxType: i === 1 ? 'A' : 'E',
    })),
    ...overrides,
  };
}
