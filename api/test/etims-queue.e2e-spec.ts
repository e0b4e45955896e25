/**
 * The eTIMS signing queue (issue 45) against the OSCU simulator (tools/etims/simulator.ts): one
 * document and one gap-free number per source however often it is queued; OSCU offline for a
 * while, then every queued document signed once, in order; KRA's refusal kept with its message,
 * fixed and resent under the same number; a crash between the send and the save reconciled by the
 * same number answered as a duplicate, never a second invoice; two API instances sending at once.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import {
  ETIMS_COUNTERS_COLLECTION,
  ETIMS_DOCUMENTS_COLLECTION,
  EtimsDocumentsRepository,
  type EtimsDocument,
} from '../src/etims/etims-documents.repository';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import type { EtimsDocumentInput } from '../src/etims/etims-request';
import { OscuClient } from '../src/etims/oscu-client';
import {
  etimsEnv,
  lineOf,
  oscuItem,
  SANDBOX_CMC_KEY as CMC_KEY,
  SANDBOX_PIN as PIN,
} from './support/etims';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

const tomato = oscuItem('KE2NTU0000001', 'Tomato seedlings, tray of 50', 'B', 450);
const avocado = oscuItem('KE2NTU0000002', 'Hass avocado grafted seedling', 'A', 250, {
  itemClsCd: '1016150000',
});

let serial = 0;
const sale = (extra: Partial<EtimsDocumentInput> = {}): EtimsDocumentInput => {
  serial += 1;
  return {
    source: `order:test${serial}:sale`,
    kind: 'sale',
    trdInvcNo: `SPC-${1000 + serial}`,
    orderId: `test${serial}`,
    paymentType: '06',
    at: new Date(),
    lines: [lineOf(tomato, 2), lineOf(avocado, 1)],
    ...extra,
  };
};

// Long enough for a loaded machine; the slow scenario below answers after twice as long.
const TIMEOUT_MS = 4000;

/** Far enough ahead that every retry's wait is over. */
const later = () => new Date(Date.now() + 2 * 3600_000);

describe('eTIMS signing queue', () => {
  let sim: EtimsSimulator;
  let t: TestApp;
  let queue: EtimsQueue;
  let db: Connection;
  let kra: OscuClient;

  const docs = () =>
    db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION).find({}).sort({ invcNo: 1 }).toArray();
  const doc = async (source: string) =>
    (await db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION).findOne({ _id: source }))!;
  const invoiceOf = (invcNo: number) => sim.invoices().filter((i) => i.invcNo === invcNo);
  const queued = async (input: EtimsDocumentInput) => (await queue.enqueue(input))!.document;

  beforeAll(async () => {
    sim = await startEtimsSimulator({ cmcKey: CMC_KEY });
    t = await createTestApp({
      name: 'etimsq',
      env: etimsEnv(sim, TIMEOUT_MS),
    });
    queue = t.app.get(EtimsQueue);
    db = t.app.get<Connection>(getConnectionToken());
    // The shop's items, registered as the item registration will (the same device key).
    kra = new OscuClient({
      baseUrl: sim.apiUrl,
      tokenUrl: sim.tokenUrl,
      consumerKey: 'k',
      consumerSecret: 's',
      tin: PIN,
      bhfId: '00',
      deviceSerial: 'SPC-LOCAL-0001',
      cmcKey: CMC_KEY,
      timeoutMs: 5000,
    });
    for (const item of [tomato, avocado])
      expect(await kra.saveItem(item)).toEqual({ kind: 'ok', data: null });
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  afterEach(() => sim.setScenario('accepted'));

  it('queues a source once: one document, one number, however often and however at once', async () => {
    const input = sale();
    const [a, b, ...rest] = await Promise.all([1, 2, 3, 4, 5].map(() => queue.enqueue(input)));
    expect([a, b, ...rest].filter((r) => r!.created)).toHaveLength(1);
    expect(new Set([a, b, ...rest].map((r) => r!.document.invcNo))).toEqual(new Set([1]));
    expect((await queue.enqueue(input))!).toMatchObject({
      created: false,
      document: { invcNo: 1 },
    });

    // Other sources at once: numbers 2… without a gap or a repeat.
    const others = await Promise.all([1, 2, 3, 4].map(() => queue.enqueue(sale())));
    expect(others.map((r) => r!.document.invcNo).sort()).toEqual([2, 3, 4, 5]);
    expect((await docs()).map((d) => d.invcNo)).toEqual([1, 2, 3, 4, 5]);
    expect(
      await db.collection(ETIMS_COUNTERS_COLLECTION).findOne({ _id: `${PIN}/00` as never }),
    ).toMatchObject({ last: 5 });

    // The request carries the number, the lines with their tax types and the totals.
    expect((await doc(input.source)).request).toMatchObject({
      invcNo: 1,
      orgInvcNo: 0,
      rcptTyCd: 'S',
      trdInvcNo: input.trdInvcNo,
      taxblAmtB: 900,
      taxAmtB: 124.14,
      taxblAmtA: 250,
      totAmt: 1150,
      itemList: [{ taxTyCd: 'B' }, { taxTyCd: 'A' }],
    });

    await queue.sendDue();
    const signed = await docs();
    expect(signed.map((d) => d.state)).toEqual(['signed', 'signed', 'signed', 'signed', 'signed']);
    expect(sim.invoices().map((i) => [i.invcNo, i.signature.totRcptNo, i.resends])).toEqual([
      [1, 1, 0],
      [2, 2, 0],
      [3, 3, 0],
      [4, 4, 0],
      [5, 5, 0],
    ]);
    const first = await doc(input.source);
    const kept = invoiceOf(1)[0]!.signature;
    expect(first).toMatchObject({
      lastCode: '000',
      attempts: 1,
      signature: {
        invcNo: 1,
        rcptNo: kept.rcptNo,
        totRcptNo: kept.totRcptNo,
        rcptSign: kept.rcptSign,
        intrlData: kept.intrlData,
        signedAt: kept.sdcDateTime,
      },
    });
    // The QR link opens KRA's (here the simulator's) page of this receipt.
    expect(await (await fetch(first.signature!.qrUrl)).json()).toMatchObject({
      found: true,
      invcNo: 1,
      trdInvcNo: input.trdInvcNo,
    });

    // Queued again once signed: still the one document, nothing sent.
    expect((await queue.enqueue(input))!.document).toMatchObject({ state: 'signed', invcNo: 1 });
    await queue.sendDue(later());
    expect(sim.invoices()).toHaveLength(5);

    // A credit note against it: the next number, naming the sale's.
    const credit = await queued({
      ...sale(),
      source: 'refund:test1',
      kind: 'credit-note',
      original: input.source,
      lines: [lineOf(avocado, 1)],
    });
    expect(credit).toMatchObject({ invcNo: 6, orgInvcNo: 1, request: { rcptTyCd: 'R' } });
    await queue.sendDue();
    expect(invoiceOf(6)).toEqual([
      expect.objectContaining({ rcptTyCd: 'R', orgInvcNo: 1, totAmt: 250 }),
    ]);
  });

  it('refuses a document that cannot be queued, taking no number', async () => {
    await expect(queue.enqueue(sale({ lines: [] }))).rejects.toMatchObject({ status: 400 });
    await expect(
      queue.enqueue(sale({ at: new Date(Date.now() + 3600_000) })),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      queue.enqueue({ ...sale(), kind: 'credit-note', original: 'order:never:sale' }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('never queued') });
    expect((await docs()).map((d) => d.invcNo)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('OSCU offline for a while, then back: every queued document signed once, in order', async () => {
    sim.setScenario('offline');
    const batch: EtimsDocument[] = [];
    for (let i = 0; i < 3; i++) batch.push(await queued(sale()));
    await queue.sendDue();
    const head = await doc(batch[0]!._id);
    expect(head).toMatchObject({ state: 'queued', attempts: 1, lastCode: null });
    expect(head.lastMessage).toMatch(/could not be reached|did not answer/);
    expect(head.nextTryAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    // The line waits for its head: nothing after it was tried.
    for (const d of batch.slice(1)) expect(await doc(d._id)).toMatchObject({ attempts: 0 });

    // Still offline when the retry is due: tried again, a longer wait.
    await queue.sendDue(later());
    const again = await doc(batch[0]!._id);
    expect(again.attempts).toBe(2);
    expect(again.nextTryAt.getTime() - again.updatedAt.getTime()).toBe(120_000);
    batch.push(await queued(sale()), await queued(sale()));

    // Back: nothing goes before its head's retry is due, then all of them, in order.
    sim.setScenario('accepted');
    expect(await queue.sendDue()).toBe(0);
    expect(sim.invoices()).toHaveLength(6);
    expect(await queue.sendDue(later())).toBe(5);
    const numbers = batch.map((d) => d.invcNo);
    expect(numbers).toEqual([7, 8, 9, 10, 11]);
    const received = sim.invoices().filter((i) => numbers.includes(i.invcNo));
    expect(received.map((i) => [i.invcNo, i.resends])).toEqual(numbers.map((n) => [n, 0]));
    // Received in number order: KRA's receipt counter rises with the invoice number.
    expect(received.map((i) => i.signature.totRcptNo)).toEqual([7, 8, 9, 10, 11]);
    for (const d of batch) expect(await doc(d._id)).toMatchObject({ state: 'signed' });
    expect(sim.gaps()).toEqual({ [`${PIN}/00`]: [] });
  });

  it('keeps KRA’s refusal and message, lets the line go on, and signs it once fixed and resent', async () => {
    // A line in the wrong classification: KRA refuses it (910) with the field.
    const wrong = await queued(
      sale({ lines: [{ ...lineOf(tomato, 1), itemClsCd: '1016160000' }] }),
    );
    const next = await queued(sale());
    await queue.sendDue();
    expect(await doc(wrong._id)).toMatchObject({
      state: 'failed',
      lastCode: '910',
      lastMessage: expect.stringContaining(
        `itemCd ${tomato.itemCd} is registered in class 1015150000`,
      ),
      attempts: 1,
    });
    // Not retried by itself; the documents after it are signed.
    expect(await doc(next._id)).toMatchObject({ state: 'signed' });
    await queue.sendDue(later());
    expect(await doc(wrong._id)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(invoiceOf(wrong.invcNo)).toEqual([]);
    expect(await queue.list(['failed'])).toEqual([expect.objectContaining({ _id: wrong._id })]);

    // A clerk fixes the line and resends: the same number, signed.
    const resent = await queue.resend(wrong._id, { lines: [lineOf(tomato, 1)] });
    expect(resent).toMatchObject({ invcNo: wrong.invcNo, request: { invcNo: wrong.invcNo } });
    await queue.sendDue();
    expect(await doc(wrong._id)).toMatchObject({ state: 'signed', lastCode: '000', attempts: 2 });
    expect(invoiceOf(wrong.invcNo)).toEqual([
      expect.objectContaining({ resends: 0, trdInvcNo: wrong.trdInvcNo, totAmt: 450 }),
    ]);

    // A document signed already is not resent: 409, nothing sent; an unknown one is 404.
    await expect(queue.resend(wrong._id)).rejects.toMatchObject({ status: 409 });
    await expect(queue.resend('order:nobody:sale')).rejects.toMatchObject({ status: 404 });
    expect(invoiceOf(wrong.invcNo)[0]!.resends).toBe(0);

    // An unregistered item: refused, registered, resent as it was.
    const mango = { ...tomato, itemCd: 'KE2NTU0000099', itemNm: 'Mango seedling' };
    const unknown = await queued(sale({ lines: [lineOf(mango, 1)] }));
    await queue.sendDue();
    expect(await doc(unknown._id)).toMatchObject({
      state: 'failed',
      lastMessage: 'Request parameter error: itemCd KE2NTU0000099 is not registered (saveItem)',
    });
    expect(await kra.saveItem(mango)).toMatchObject({ kind: 'ok' });
    await queue.resend(unknown._id);
    await queue.sendDue();
    expect(await doc(unknown._id)).toMatchObject({ state: 'signed' });
  });

  it('reconciles a send whose answer was lost (timed out) by the same number: no second invoice', async () => {
    // OSCU signs it but answers after the client gave up.
    sim.setScenario({ kind: 'slow', delayMs: 2 * TIMEOUT_MS }, { times: 1 });
    const lost = await queued(sale());
    await queue.sendDue();
    expect(await doc(lost._id)).toMatchObject({
      state: 'queued',
      lastMessage: 'OSCU did not answer in time',
    });
    await waitFor(
      async () => invoiceOf(lost.invcNo).length,
      (n) => n === 1,
      4 * TIMEOUT_MS,
      100,
    );
    const first = invoiceOf(lost.invcNo)[0]!.signature;

    await queue.sendDue(later());
    expect(await doc(lost._id)).toMatchObject({
      state: 'signed',
      lastCode: '994',
      signature: { rcptSign: first.rcptSign, rcptNo: first.rcptNo, totRcptNo: first.totRcptNo },
    });
    expect(invoiceOf(lost.invcNo)).toEqual([
      expect.objectContaining({ resends: 1, conflictingResends: 0 }),
    ]);
  });

  it('reconciles a crash between send and save once its lease lapses: no second invoice', async () => {
    sim.setScenario('offline');
    const crashed = await queued(sale());
    const after = await queued(sale());
    await queue.sendDue();
    sim.setScenario('accepted');
    // The dead instance's attempt: KRA signed it, the instance died before saving.
    const request = (await doc(crashed._id)).request;
    expect(await kra.sendSale(request)).toMatchObject({ kind: 'signed' });
    const documents = db.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION);
    await documents.updateOne(
      { _id: crashed._id },
      {
        $set: {
          state: 'sending',
          sender: 'dead-instance',
          leaseUntil: new Date(Date.now() + 60_000),
        },
      },
    );
    // While its lease holds, nobody sends it, nor anything after it.
    expect(await queue.sendDue(later())).toBe(0);
    expect(await doc(after._id)).toMatchObject({ state: 'queued' });
    expect(invoiceOf(crashed.invcNo)[0]!.resends).toBe(0);

    await documents.updateOne(
      { _id: crashed._id },
      { $set: { leaseUntil: new Date(Date.now() - 1000) } },
    );
    expect(await queue.sendDue(later())).toBe(2);
    const signature = invoiceOf(crashed.invcNo)[0]!.signature;
    expect(await doc(crashed._id)).toMatchObject({
      state: 'signed',
      lastCode: '994',
      sender: null,
      signature: { rcptSign: signature.rcptSign },
    });
    expect(invoiceOf(crashed.invcNo)).toEqual([
      expect.objectContaining({ resends: 1, conflictingResends: 0 }),
    ]);
    expect(await doc(after._id)).toMatchObject({ state: 'signed' });
  });

  it('two API instances sending the same line at once send each document once', async () => {
    const second = await createTestApp({
      name: 'etimsq2',
      databaseName: t.databaseName,
      env: etimsEnv(sim, TIMEOUT_MS),
    });
    try {
      sim.setScenario('offline');
      const batch: EtimsDocument[] = [];
      for (let i = 0; i < 6; i++) batch.push(await queued(sale()));
      await queue.sendDue();
      sim.setScenario('accepted');
      const other = second.app.get(EtimsQueue);
      const [a, b] = await Promise.all([queue.sendDue(later()), other.sendDue(later())]);
      expect(a + b).toBe(6);
      const numbers = batch.map((d) => d.invcNo);
      const received = sim.invoices().filter((i) => numbers.includes(i.invcNo));
      expect(received.map((i) => [i.invcNo, i.resends])).toEqual(numbers.map((n) => [n, 0]));
      expect(received.map((i) => i.signature.totRcptNo)).toEqual(
        [...received.map((i) => i.signature.totRcptNo)].sort((x, y) => x - y),
      );
    } finally {
      // The second instance shares the database: closed without dropping it.
      await second.app.close();
    }
    expect(sim.gaps()).toEqual({ [`${PIN}/00`]: [] });
  });

  it('never credits more than a sale, however many credit notes against it are queued at once (400, no number taken)', async () => {
    const original = await queued(sale());
    // Six credit notes of KES 450 against a sale of KES 1,150: two fit.
    const asked = [1, 2, 3, 4, 5, 6].map((n) => ({
      ...sale(),
      source: `refund:race-${n}`,
      kind: 'credit-note' as const,
      original: original._id,
      lines: [lineOf(tomato, 1)],
    }));
    const results = await Promise.allSettled(asked.map((input) => queue.enqueue(input)));
    const queuedNotes = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(queuedNotes).toHaveLength(2);
    for (const r of refused) expect(r.reason).toMatchObject({ status: 400 });
    expect(await queue.creditedOf(original._id)).toBe(90_000);
    const credits = await db
      .collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION)
      .find({ original: original._id })
      .toArray();
    expect(credits.map((d) => d.request.totAmt)).toEqual([450, 450]);
    // The refused took no number: the branch's numbers stay gap-free.
    const numbers = (await docs()).map((d) => d.invcNo);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    // Asked again (a re-run): the same two, nothing more.
    const again = await Promise.allSettled(asked.map((input) => queue.enqueue(input)));
    expect(again.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect((await docs()).map((d) => d.invcNo)).toEqual(numbers);

    // A crash between a credit note's reservation and its insert: the re-run finds it and inserts.
    const next = await queued(sale());
    const repository = t.app.get(EtimsDocumentsRepository);
    await repository.seedCredits(next._id);
    expect(await repository.reserveCredit(next._id, 'refund:crashed', 45_000, 115_000)).toBe(true);
    const rerun = await queue.enqueue({
      ...asked[0]!,
      source: 'refund:crashed',
      original: next._id,
    });
    expect(rerun).toMatchObject({ created: true, document: { request: { totAmt: 450 } } });
    expect(await queue.creditedOf(next._id)).toBe(45_000);
  });
});
