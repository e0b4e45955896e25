/** The gate till as the API answers it (shared-contracts/src/till.ts), for the till's tests. */
import type { TillSaleView, TillSessionView } from '@spc/shared-contracts';
import { json } from './organisations';

export const SESSION_ID = '6650f0c2a1b2c3d4e5f6c001';
export const SALE_ID = '6650f0c2a1b2c3d4e5f6c101';

/** An open session of the signed-in clerk (createUser's _id): a KES 2,000 float, no sales yet. */
export function createTillSession(overrides: Partial<TillSessionView> = {}): TillSessionView {
  return {
    _id: SESSION_ID,
    staffId: '64b7f0c2a1b2c3d4e5f60718',
    staffName: 'Wanjiku Mary Kamau',
    state: 'open',
    openedAt: '2026-11-29T05:00:00.000Z',
    float: 2000,
    closedAt: null,
    countedCash: null,
    sales: 0,
    total: 0,
    reopened: [],
    ...overrides,
  };
}

/** A cash sale of 3 trays and 20 singles (KES 5,100), KES 6,000 given, not signed by eTIMS yet. */
export function createTillSale(overrides: Partial<TillSaleView> = {}): TillSaleView {
  return {
    orderId: SALE_ID,
    purchaseNumber: 'SPGATE0001',
    sessionId: SESSION_ID,
    sellerName: 'Wanjiku Mary Kamau',
    at: '2026-11-29T07:15:00.000Z',
    lines: [
      {
        productId: 'p1',
        name: 'Kale Sukuma Wiki',
        unitName: 'Tray of 50',
        quantity: 3,
        unitPrice: 1500,
        lineTotal: 4500,
      },
      {
        productId: 'p1',
        name: 'Kale Sukuma Wiki',
        unitName: 'Single seedling',
        quantity: 20,
        unitPrice: 30,
        lineTotal: 600,
      },
    ],
    total: 5100,
    paid: 5100,
    change: 900,
    payments: [
      { method: 'cash', amount: 5100, given: 6000, change: 900, code: null, state: 'received' },
    ],
    phone: null,
    state: 'paid',
    refunded: 0,
    offline: null,
    needsAttention: null,
    short: false,
    etims: null,
    ...overrides,
  };
}

/** A request the fake API saw: its method, path, headers and JSON body. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

type Route = (request: SeenRequest) => Response | Promise<Response> | undefined;

/**
 * Fakes the API for one test: each request goes to `route` (by method and path); what it does not
 * answer is a 404. Every request is recorded, in order.
 */
export function fakeApi(route: Route): SeenRequest[] {
  const seen: SeenRequest[] = [];
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const body: unknown = await request.json().catch(() => undefined);
    const url = new URL(request.url);
    const entry = {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
      body,
    };
    seen.push(entry);
    return (await route(entry)) ?? json(404, { success: false, message: 'Not found' });
  });
  return seen;
}

export { json };
