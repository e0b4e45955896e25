/**
 * Typed test data: each factory answers what the API sends, typed by the generated OpenAPI
 * document (shared-contracts/src/generated/api-types.ts), with the test's overrides on top.
 * A field the API renames or drops fails the typecheck of the tests that use it.
 */
import { defaultUnitOf, type SaleUnit, type components } from '@spc/shared-contracts';
import type { Category, Order, Product } from '../lib/types';

type Schemas = components['schemas'];
export type ProductListResponseDto = Schemas['ProductListResponseDto'];
export type OrderLineDto = Schemas['OrderLineDto'];
export type OrderListResponseDto = Schemas['OrderListResponseDto'];
export type OrderDetailResponseDto = Schemas['OrderDetailResponseDto'];

const CREATED = '2026-01-01T00:00:00.000Z';

export function createProduct(overrides: Partial<Product> = {}): Product {
  const _id = overrides._id ?? '665f1c2b9d3e4a0012345679';
  const price = overrides.price ?? 350;
  const offer = {
    price,
    onOffer: overrides.onOffer ?? false,
    offerPrice: overrides.offerPrice ?? 0,
  };
  return {
    _id,
    productName: 'Hass Avocado Seedling',
    productDescription: 'Grafted, ready to plant',
    price: 350,
    initialPrice: 350,
    offerPrice: 0,
    onOffer: false,
    effectivePrice: 350,
    productQuantity: 12,
    units: [defaultUnitOf(offer, _id)],
    batches: [],
    fromPrice: overrides.effectivePrice ?? price,
    category: { _id: '665f1c2b9d3e4a0012345600', name: 'Fruits' },
    productImage: '',
    productImages: {},
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** A sale unit: a tray of 50 at KES 15,000, no offer, no tiers, unless told. */
export function createSaleUnit(overrides: Partial<SaleUnit> = {}): SaleUnit {
  return {
    _id: 'u-tray',
    name: 'Tray of 50',
    seedlings: 50,
    price: 15000,
    offerPrice: 0,
    sku: '',
    minQuantity: 1,
    step: 1,
    tiers: [],
    ...overrides,
  };
}

export function createCategory(overrides: Partial<Category> = {}): Category {
  return {
    _id: '665f1c2b9d3e4a0012345600',
    name: 'Fruits',
    description: '',
    productCount: 0,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** A page of the shop's products, as GET /api/products answers it. */
export function createProductList(
  overrides: Partial<ProductListResponseDto> = {},
): ProductListResponseDto {
  const products = overrides.products ?? [createProduct()];
  return {
    success: true,
    message: 'ok',
    products,
    categories: [],
    totalProducts: products.length,
    totalsPerCategory: {},
    totalPages: 1,
    totalFilteredProducts: products.length,
    page: 1,
    limit: 12,
    priceRange: { min: 0, max: 0 },
    ...overrides,
  };
}

export function createOrderLine(overrides: Partial<OrderLineDto> = {}): OrderLineDto {
  const productName = overrides.productName ?? 'Hass Avocado';
  return {
    product: { _id: 'p1', productName, productImage: '' },
    productName,
    productImage: '',
    unitPrice: 350,
    quantity: 1,
    lineTotal: 350,
    unit: { _id: 'p1', name: 'Single seedling', seedlings: 1 },
    tier: null,
    ...overrides,
  };
}

/** An order as the API shows it to its customer: a guest's, pending, unpaid. */
export function createOrder(overrides: Partial<Order> = {}): Order {
  return {
    _id: 'o1',
    purchaseNumber: 'SPD7K3MX9QA',
    amountPaid: 0,
    amountOutstanding: 0,
    excessPaid: 0,
    amountDueNow: 0,
    onAccount: false,
    inTranches: false,
    booking: null,
    placedBy: null,
    customerName: 'Wanjiku Kamau',
    guestInfo: {
      fullName: 'Wanjiku Kamau',
      phoneNumber: '0722000111',
      email: 'w@example.co.ke',
      county: 'Kiambu',
      subCounty: 'Ruiru',
      ward: 'Gitothua',
      streetAddress: 'Kamakis',
    },
    products: [createOrderLine()],
    subtotal: 350,
    shippingFee: 0,
    delivery: { method: 'delivery', zoneName: 'All of Kenya', days: 3 },
    totalAmount: 350,
    orderStatus: 'Pending',
    paymentStatus: 'Pending',
    fulfillmentStatus: 'Unfulfilled',
    paymentMethod: null,
    paymentDetails: null,
    paidAt: null,
    orderDate: '2026-03-01T09:00:00.000Z',
    estimatedDeliveryDate: '2026-03-04T09:00:00.000Z',
    inTransitDate: null,
    deliveredDate: null,
    cancelledDate: null,
    createdAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T09:00:00.000Z',
    ...overrides,
  };
}

export type OrderBookingDto = Schemas['OrderBookingDto'];

/** A booking of a growing batch (issue 32): its deposit paid, waiting for the batch. */
export function createBooking(overrides: Partial<OrderBookingDto> = {}): OrderBookingDto {
  return {
    batchId: 'b1',
    productName: 'Hass Avocado',
    readyOn: '2027-03-12',
    depositPercent: 30,
    deposit: 315,
    balance: 735,
    state: 'Booked',
    depositPaidAt: '2026-11-20T10:00:00.000Z',
    depositReceipt: 'SKD1234567',
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

/** One page of orders, as GET /api/orders/user answers it. */
export function createOrderList(orders: Order[]): OrderListResponseDto {
  return {
    success: true,
    message: 'ok',
    orders,
    totalOrders: orders.length,
    totalIsLowerBound: false,
    totalPages: 1,
    page: 1,
  };
}

/**
 * An order's detail (GET /api/orders/{id}/detail) with the shop's block filled in; its order gives
 * no buyer's KRA PIN unless told.
 */
export function createOrderDetail({
  order = createOrder(),
  ...overrides
}: Partial<Omit<OrderDetailResponseDto, 'order'>> & {
  order?: Order & { kraPin?: string | null };
} = {}): OrderDetailResponseDto {
  return {
    success: true,
    message: 'Order retrieved',
    order: { kraPin: null, ...order },
    timeline: [],
    actions: [],
    documents: { receipt: { available: true }, deliveryNote: { available: true } },
    money: { received: 0, refunded: 0, refundable: 0, entries: [] },
    etims: [],
    shop: {
      name: 'Seedling Propagation Centre',
      place: 'Kiambu, Kenya',
      phone: '+254700000000',
      website: 'shop',
    },
    ...overrides,
  };
}

export type MoneyEntryViewDto = Schemas['MoneyEntryViewDto'];

/**
 * One entry of an order's money as a customer sees it (no staff, no numbers): a KES 1,050 paybill
 * payment unless told.
 */
export function createMoneyEntry(overrides: Partial<MoneyEntryViewDto> = {}): MoneyEntryViewDto {
  return {
    id: 'c2b:SGH7K2LP9Q',
    direction: 'in',
    kind: 'paybill',
    amount: 1050,
    code: 'SGH7K2LP9Q',
    reference: '',
    at: '2026-03-01T10:00:00.000Z',
    state: 'credited',
    payer: null,
    by: null,
    of: null,
    returned: 0,
    split: null,
    ...overrides,
  };
}

/** An order's money block: the totals follow the entries. */
export function createOrderMoney(entries: MoneyEntryViewDto[]): OrderDetailResponseDto['money'] {
  const sum = (d: 'in' | 'out') =>
    entries.filter((e) => e.direction === d).reduce((n, e) => n + e.amount, 0);
  return {
    received: sum('in'),
    refunded: sum('out'),
    refundable: sum('in') - sum('out'),
    entries,
  };
}
