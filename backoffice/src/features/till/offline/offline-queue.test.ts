import { TILL_MESSAGES } from '@spc/shared-contracts';
import { IDBFactory } from 'fake-indexeddb';
import { closeOfflineDb, readQueue, readRefused, readSent, type QueuedSale } from './offline-db';
import {
  enqueueSale,
  flushQueue,
  queuedSeedlings,
  sendRefusedAgain,
  useOfflineQueue,
  type SendSale,
} from './offline-queue';

const queued = (key: string, staffId = 'clerk-1'): QueuedSale => ({
  key,
  staffId,
  sellerName: 'Grace Wanjiru',
  input: {
    sessionId: 'session-1',
    lines: [{ productId: 'kale', unitId: 'tray', quantity: 2 }],
    payments: [{ method: 'cash', amount: 3000, given: 3000 }],
    offline: {
      soldAt: '2026-11-28T09:00:00.000Z',
      prices: [{ productId: 'kale', unitId: 'tray', unitPrice: 1500 }],
    },
  },
  lines: [
    {
      productId: 'kale',
      name: 'Kale',
      unitName: 'Tray of 50',
      seedlings: 50,
      quantity: 2,
      unitPrice: 1500,
      lineTotal: 3000,
    },
  ],
  payments: [{ method: 'cash', amount: 3000, given: 3000 }],
  total: 3000,
  change: 0,
});

const made = (key: string) => ({
  ok: true as const,
  sale: { orderId: `order-${key}`, purchaseNumber: `G-${key}` } as never,
});

beforeEach(() => {
  // A fresh IndexedDB for every case.
  globalThis.indexedDB = new IDBFactory();
  closeOfflineDb();
  useOfflineQueue.setState({ loaded: false, queue: [], refused: [], sent: [], sending: false });
});

describe('the offline sales queue', () => {
  it('sends the sales in the order they were charged, each once under its own key', async () => {
    for (const key of ['a', 'b', 'c']) await enqueueSale(queued(key));
    const sentKeys: string[] = [];
    const send: SendSale = async (sale) => {
      sentKeys.push(sale.key);
      await new Promise((r) => setTimeout(r, 5));
      return made(sale.key);
    };
    // Two triggers at once (the `online` event and the 30 s retry) share one sending.
    const [first, second] = await Promise.all([
      flushQueue(send, 'clerk-1'),
      flushQueue(send, 'clerk-1'),
    ]);
    expect(sentKeys).toEqual(['a', 'b', 'c']);
    expect(first).toEqual({ sent: 3, refused: 0, left: 0 });
    expect(second).toBe(first);
    expect(await readQueue()).toEqual([]);
    expect((await readSent()).map((s) => [s.key, s.purchaseNumber])).toEqual([
      ['a', 'G-a'],
      ['b', 'G-b'],
      ['c', 'G-c'],
    ]);
    expect(useOfflineQueue.getState().queue).toEqual([]);
    // Sent again: nothing left to send.
    await flushQueue(send, 'clerk-1');
    expect(sentKeys).toEqual(['a', 'b', 'c']);
  });

  it('keeps a refused sale with the API’s words, and goes on with the next', async () => {
    for (const key of ['a', 'b', 'c']) await enqueueSale(queued(key));
    const send: SendSale = async (sale) =>
      sale.key === 'b'
        ? { ok: false, status: 409, message: TILL_MESSAGES.sessionClosed }
        : made(sale.key);
    expect(await flushQueue(send, 'clerk-1')).toEqual({ sent: 2, refused: 1, left: 0 });
    const refused = await readRefused();
    expect(refused.map((r) => [r.key, r.status, r.message])).toEqual([
      ['b', 409, TILL_MESSAGES.sessionClosed],
    ]);
    expect(refused[0]!.input.offline.prices).toEqual([
      { productId: 'kale', unitId: 'tray', unitPrice: 1500 },
    ]);
    expect(useOfflineQueue.getState().refused).toHaveLength(1);
    expect(await readQueue()).toEqual([]);
  });

  it('sends a refused sale again under its own key, before the sales still waiting', async () => {
    await enqueueSale(queued('a'));
    const refuse: SendSale = async () => ({
      ok: false,
      status: 409,
      message: TILL_MESSAGES.saleUnfinishedClosed,
    });
    await flushQueue(refuse, 'clerk-1');
    await enqueueSale(queued('b'));
    // An admin reopened the session: the clerk sends it again.
    await sendRefusedAgain('a');
    expect(await readRefused()).toEqual([]);
    expect((await readQueue()).map((s) => s.key)).toEqual(['a', 'b']);
    expect((await readQueue())[0]).not.toHaveProperty('message');
    const sentKeys: string[] = [];
    const send: SendSale = async (sale) => {
      sentKeys.push(sale.key);
      return made(sale.key);
    };
    expect(await flushQueue(send, 'clerk-1')).toEqual({ sent: 2, refused: 0, left: 0 });
    expect(sentKeys).toEqual(['a', 'b']);
    // Sent again twice, it is queued once.
    await sendRefusedAgain('a');
    expect(await readQueue()).toEqual([]);
  });

  it('keeps every sale on a network error, a 5xx or a 409 in progress, and sends them later in order', async () => {
    for (const key of ['a', 'b']) await enqueueSale(queued(key));
    const answers = [
      { ok: false as const, status: 0, message: 'No network' },
      { ok: false as const, status: 503, message: 'Service Unavailable' },
      {
        ok: false as const,
        status: 409,
        message: TILL_MESSAGES.saleInProgress,
        code: 'IN_PROGRESS',
      },
    ];
    for (const answer of answers) {
      const tried: string[] = [];
      const result = await flushQueue(async (sale) => {
        tried.push(sale.key);
        return answer;
      }, 'clerk-1');
      expect(tried).toEqual(['a']);
      expect(result).toEqual({ sent: 0, refused: 0, left: 2 });
      expect((await readQueue()).map((s) => s.key)).toEqual(['a', 'b']);
      expect(await readRefused()).toEqual([]);
    }
    const tried: string[] = [];
    await flushQueue(async (sale) => {
      tried.push(sale.key);
      return made(sale.key);
    }, 'clerk-1');
    expect(tried).toEqual(['a', 'b']);
    expect(await readQueue()).toEqual([]);
  });

  it('keeps the sales a queue survives a reload with (read again from IndexedDB)', async () => {
    await enqueueSale(queued('a'));
    closeOfflineDb();
    useOfflineQueue.setState({ queue: [] });
    expect((await readQueue()).map((s) => s.key)).toEqual(['a']);
  });

  it('sends only the signed-in clerk’s sales; another clerk’s wait for them', async () => {
    await enqueueSale(queued('a', 'clerk-2'));
    await enqueueSale(queued('b', 'clerk-1'));
    const tried: string[] = [];
    await flushQueue(async (sale) => {
      tried.push(sale.key);
      return made(sale.key);
    }, 'clerk-1');
    expect(tried).toEqual(['b']);
    expect((await readQueue()).map((s) => s.key)).toEqual(['a']);
  });

  it('counts the seedlings the queued sales took, per product', () => {
    expect(queuedSeedlings([queued('a'), queued('b')]).get('kale')).toBe(200);
  });
});
