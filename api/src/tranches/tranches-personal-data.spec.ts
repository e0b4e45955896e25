import { ANONYMOUS_NAME, type DataSubject } from '../common/personal-data';
import type { OrderTranchesRecord, TrancheRecord } from './tranche-record';
import { TranchesPersonalData } from './tranches-personal-data';
import type { TranchesRepository } from './tranches.repository';

const tranche = (number: number, contact: { name: string; phone: string }): TrancheRecord => ({
  number,
  state: 'Delivered',
  date: '2026-10-15',
  site: { name: `${contact.name} farm`, county: 'Kiambu', subCounty: '', contact },
  lines: [
    { line: 0, quantity: 5, dispatched: 5, delivered: 4, shortReason: `${contact.name} said no` },
  ],
  plannedAt: new Date(),
  changedAt: null,
  dispatchedAt: new Date(),
  signedBy: contact.name,
  signedAt: new Date(),
  recordedAt: new Date(),
  cancelledAt: null,
  remindedFor: null,
});

const doc = (id: string, tranches: TrancheRecord[]): OrderTranchesRecord => ({
  _id: id,
  purchaseNumber: `SPD${id}`,
  organisationId: 'org',
  lpoNumber: 'LPO-1',
  lines: [],
  tranches,
  next: tranches.length + 1,
  rev: 1,
  work: [],
});

/** The tranches' repository, in memory: what the owner reads and writes. */
function memory(docs: OrderTranchesRecord[]) {
  const store = new Map(docs.map((d) => [d._id, structuredClone(d)]));
  const repo = {
    find: async (id: string) => structuredClone(store.get(id) ?? null),
    forOrders: async (ids: readonly string[]) =>
      ids.flatMap((id) => (store.has(id) ? [structuredClone(store.get(id)!)] : [])),
    withContactPhones: async (phones: readonly string[]) =>
      [...store.values()]
        .filter((d) => d.tranches.some((t) => phones.includes(t.site.contact.phone)))
        .map((d) => structuredClone(d)),
    replace: async (id: string, rev: number, change: Pick<OrderTranchesRecord, 'tranches'>) => {
      const now = store.get(id)!;
      if (now.rev !== rev) return false;
      store.set(id, { ...now, tranches: change.tranches, rev: rev + 1 });
      return true;
    },
  };
  return { repo: repo as unknown as TranchesRepository, store };
}

const subject = (over: Partial<DataSubject>): DataSubject => ({
  accountId: 'acc',
  orderIds: [],
  purchaseNumbers: [],
  phones: [],
  emails: [],
  names: [],
  otherIds: [],
  proven: { emails: [], phones: [] },
  ...over,
});

describe('the tranches as an owner of personal data', () => {
  const wairimu = { name: 'Wairimu Njeri', phone: '+254711000111' };
  const peter = { name: 'Peter Mwangi', phone: '+254722000222' };

  it("erases the person from their own orders' tranches (contact, signer, site name, reasons) and leaves others", async () => {
    const { repo, store } = memory([
      doc('a', [tranche(1, wairimu), tranche(2, peter)]),
      doc('b', [tranche(1, wairimu)]),
    ]);
    await new TranchesPersonalData(repo).erase(
      subject({ orderIds: ['a'], names: ['Wairimu Njeri'], phones: [wairimu.phone] }),
    );
    const [mine, theirs] = store.get('a')!.tranches;
    expect(mine!.site.contact).toEqual({ name: ANONYMOUS_NAME, phone: '' });
    expect(mine!.signedBy).toBe(ANONYMOUS_NAME);
    expect(mine!.site.name).toBe(`${ANONYMOUS_NAME} farm`);
    expect(mine!.lines[0]!.shortReason).toBe(`${ANONYMOUS_NAME} said no`);
    // Another contact on their order stays; another organisation's order is not theirs to reach
    // by a name or an unproven phone.
    expect(theirs!.site.contact).toEqual(peter);
    expect(theirs!.signedBy).toBe('Peter Mwangi');
    expect(store.get('b')!.tranches[0]!.site.contact).toEqual(wairimu);
  });

  it('erases a site contact everywhere by a phone they proved theirs, and only the contact', async () => {
    const { repo, store } = memory([
      doc('a', [tranche(1, peter)]),
      doc('b', [tranche(1, wairimu)]),
    ]);
    await new TranchesPersonalData(repo).erase(
      subject({ accountId: null, proven: { emails: [], phones: [peter.phone] } }),
    );
    expect(store.get('a')!.tranches[0]!.site.contact).toEqual({ name: ANONYMOUS_NAME, phone: '' });
    expect(store.get('b')!.tranches[0]!.site.contact).toEqual(wairimu);
  });

  it("exports the tranches of the person's orders", async () => {
    const { repo } = memory([doc('a', [tranche(1, wairimu)]), doc('b', [tranche(1, peter)])]);
    const out = await new TranchesPersonalData(repo).export(subject({ orderIds: ['a'] }));
    expect(out.tranches).toEqual([
      expect.objectContaining({ purchaseNumber: 'SPDa', tranche: 'T1', state: 'Delivered' }),
    ]);
  });
});
