/**
 * A trail of years: its total is counted up to AUDIT_COUNT_LIMIT (or the end of the page asked for)
 * and no further, the answer saying when it is a lower bound (X-Total-Is-Lower-Bound), and it still
 * pages forward to its last entry and back, every entry once, newest first.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { AUDIT_COUNT_LIMIT, AUDIT_EXPORT_LIMIT } from '@spc/shared-contracts';
import { bearer, signInAdmin, type Session } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

/** Entries beyond the bound: the trail holds AUDIT_COUNT_LIMIT + OVER and the admin's own. */
const OVER = 30;

describe('audit trail: a bounded total on a long trail, and paging to its end', () => {
  let t: TestApp;
  let admin: Session;
  /** Every entry in the trail, as the database holds them. */
  let held = 0;

  const page = async (query: string) => {
    const res = await t
      .http()
      .get(`/api/audit-logs?${query}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    return {
      ids: (res.body as { _id: string; timestamp: string }[]).map((e) => e._id),
      times: (res.body as { timestamp: string }[]).map((e) => e.timestamp),
      total: Number(res.headers['x-total-count']),
      lowerBound: res.headers['x-total-is-lower-bound'],
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ name: 'audit_paging' });
    admin = await signInAdmin(t);
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    // A clerk's years of order payments, one a minute, written as the API writes them.
    const start = Date.UTC(2024, 0, 1);
    const entries = Array.from({ length: AUDIT_COUNT_LIMIT + OVER }, (_, i) => ({
      action: 'order.payment',
      message: `Grace Njeri recorded a payment on order SPD-${i}`,
      performedBy: { id: 'clerk-1', fullName: 'Grace Njeri', role: 'staff' },
      target: { type: 'order', id: `order-${i}`, label: `SPD-${i}` },
      timestamp: new Date(start + i * 60_000),
    }));
    for (let i = 0; i < entries.length; i += 2000)
      await db.collection('audit_logs').insertMany(entries.slice(i, i + 2000));
    held = await db.collection('audit_logs').countDocuments({});
  });
  afterAll(() => t.close());

  it('says the total is a lower bound past AUDIT_COUNT_LIMIT, and exact within it', async () => {
    const first = await page('page=1&limit=50');
    expect(first).toMatchObject({ total: AUDIT_COUNT_LIMIT, lowerBound: 'true' });
    expect(first.ids).toHaveLength(50);
    expect([...first.times].sort().reverse()).toEqual(first.times);
    // Narrowed to a few entries: counted exactly.
    const few = await page('action=auth.login');
    expect(few).toMatchObject({ lowerBound: 'false' });
    expect(few.total).toBe(few.ids.length);
    expect(few.total).toBeGreaterThan(0);
  });

  it('pages past the bound to the last entry, the total then exact', async () => {
    const limit = 100;
    const lastPage = Math.ceil(held / limit);
    expect(lastPage).toBe(AUDIT_COUNT_LIMIT / limit + 1);
    const bound = await page(`page=${lastPage - 2}&limit=${limit}`);
    expect(bound).toMatchObject({ total: AUDIT_COUNT_LIMIT, lowerBound: 'true' });
    // The next page is past the count's bound: counted to its end, and one more.
    const last = await page(`page=${lastPage}&limit=${limit}`);
    expect(last).toMatchObject({ total: held, lowerBound: 'false' });
    expect(last.ids).toHaveLength(held - (lastPage - 1) * limit);
    expect(last.times.at(-1)).toBe(new Date(Date.UTC(2024, 0, 1)).toISOString());
    expect((await page(`page=${lastPage + 1}&limit=${limit}`)).ids).toEqual([]);
    // Back again: the pages meet, no entry twice or missing.
    const before = await page(`page=${lastPage - 1}&limit=${limit}`);
    expect(before).toMatchObject({ total: AUDIT_COUNT_LIMIT, lowerBound: 'true' });
    expect(before.ids).toHaveLength(limit);
    expect(new Set([...bound.ids, ...before.ids, ...last.ids]).size).toBe(
      bound.ids.length + before.ids.length + last.ids.length,
    );
    expect(before.times.at(-1)! >= last.times[0]!).toBe(true);
  });

  it('exports the newest AUDIT_EXPORT_LIMIT entries, saying more match', async () => {
    const res = await t
      .http()
      .get('/api/audit-logs/export')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(res.headers['x-total-count']).toBe(String(AUDIT_EXPORT_LIMIT));
    expect(res.headers['x-total-is-lower-bound']).toBe('true');
    expect(res.text.trimEnd().split('\n')).toHaveLength(AUDIT_EXPORT_LIMIT + 1);
  });
});
