/**
 * A trail of years: its total is counted up to AUDIT_COUNT_LIMIT (or the end of the page asked for)
 * and no further, the answer saying when it is a lower bound (X-Total-Is-Lower-Bound), and it still
 * pages forward to its last entry and back, every entry once, newest first: the entries of the last
 * day and a half (read in several windows of time) and those of years ago alike.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { AUDIT_COUNT_LIMIT } from '@spc/shared-contracts';
import { bearer, signInAdmin, type Session } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

/** Old entries beyond the bound (a clerk's payments, one a minute, in January 2024). */
const OVER = 30;
/** Recent entries: the shop's own, one every 7 minutes back from now (35 hours). */
const RECENT = 300;

describe('audit trail: a bounded total on a long trail, and paging to its end', () => {
  let t: TestApp;
  let admin: Session;
  /** Every entry's id, newest first, as the database sorts them. */
  let trail: string[] = [];

  const page = async (query: string) => {
    const res = await t
      .http()
      .get(`/api/audit-logs?${query}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    return {
      ids: (res.body as { _id: string }[]).map((e) => e._id),
      total: Number(res.headers['x-total-count']),
      lowerBound: res.headers['x-total-is-lower-bound'],
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ name: 'audit_paging' });
    admin = await signInAdmin(t);
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    const entry = (action: string, i: number, at: number) => ({
      action,
      message: `An entry about order SPD-${i}`,
      performedBy: { id: 'clerk-1', fullName: 'Grace Njeri', role: 'staff' },
      target: { type: 'order', id: `order-${i}`, label: `SPD-${i}` },
      timestamp: new Date(at),
    });
    const old = Array.from({ length: AUDIT_COUNT_LIMIT + OVER }, (_, i) =>
      entry('order.payment', i, Date.UTC(2024, 0, 1) + i * 60_000),
    );
    const now = Date.now();
    // Two at each instant: ties are broken by id, as the list sorts.
    const recent = Array.from({ length: RECENT }, (_, i) =>
      entry('order.ready', i, now - 60_000 - Math.floor(i / 2) * 7 * 60_000),
    );
    await db.collection('audit_logs').insertMany([...old, ...recent]);
    trail = (
      await db
        .collection('audit_logs')
        .find({}, { projection: { _id: 1 } })
        .sort({ timestamp: -1, _id: -1 })
        .toArray()
    ).map((d) => String(d._id));
  });
  afterAll(() => t.close());

  it('says the total is a lower bound past AUDIT_COUNT_LIMIT, and exact within it', async () => {
    const first = await page('page=1&limit=50');
    expect(first).toMatchObject({ total: AUDIT_COUNT_LIMIT, lowerBound: 'true' });
    expect(first.ids).toEqual(trail.slice(0, 50));
    const recent = await page('action=order.ready&limit=10');
    expect(recent).toMatchObject({ total: RECENT, lowerBound: 'false' });
    const none = await page('action=order.cancel');
    expect(none).toEqual({ ids: [], total: 0, lowerBound: 'false' });
  });

  it('pages to the last entry and back, every entry once in order, the total exact at the end', async () => {
    const limit = 100;
    const pages = Math.ceil(trail.length / limit);
    const seen: string[] = [];
    for (let n = 1; n <= pages; n++) {
      const { ids, total, lowerBound } = await page(`page=${n}&limit=${limit}`);
      seen.push(...ids);
      // Counted to the bound or the page's end, and one more: a lower bound until the last page.
      if (n < pages)
        expect({ n, total, lowerBound }).toEqual({
          n,
          total: Math.max(AUDIT_COUNT_LIMIT, n * limit),
          lowerBound: 'true',
        });
      else
        expect({ n, total, lowerBound }).toEqual({ n, total: trail.length, lowerBound: 'false' });
    }
    expect(seen).toEqual(trail);
    expect((await page(`page=${pages + 1}&limit=${limit}`)).ids).toEqual([]);
    expect((await page(`page=${pages - 1}&limit=${limit}`)).ids).toEqual(
      trail.slice((pages - 2) * limit, (pages - 1) * limit),
    );
  });

  it('pages a filter whose entries lie in several windows of time, across their edges', async () => {
    // The recent entries are the newest, but for the admin's sign-in.
    const ready = trail.slice(1, RECENT + 1);
    const seen: string[] = [];
    for (let n = 1; n <= Math.ceil(RECENT / 7); n++)
      seen.push(...(await page(`action=order.ready&page=${n}&limit=7`)).ids);
    expect(seen).toEqual(ready);
  });

  it('exports every entry of a filter, saying how many exactly when it counted them all', async () => {
    const res = await t
      .http()
      .get('/api/audit-logs/export?action=order.payment')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(res.headers['x-total-count']).toBe(String(AUDIT_COUNT_LIMIT + OVER));
    expect(res.headers['x-total-is-lower-bound']).toBe('false');
    expect(res.text.trimEnd().split('\n')).toHaveLength(AUDIT_COUNT_LIMIT + OVER + 1);
  });
});
