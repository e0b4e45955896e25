/**
 * The OSCU client against the eTIMS simulator (tools/etims/simulator.ts): the device's
 * initialisation, item registration, a sale signed once however often it is sent, KRA's
 * rejections, OSCU offline and slow. No database: the client and the simulator alone.
 */
import {
  receiptCanonical,
  signReceipt,
  startEtimsSimulator,
  type EtimsSimulator,
} from '../../tools/etims/simulator';
import {
  OscuClient,
  oscuDate,
  oscuTimestamp,
  parseOscuTimestamp,
  receiptVerificationUrl,
  type OscuClientSettings,
  type OscuSignature,
} from '../src/etims/oscu-client';
import { oscuSalesItems, oscuTotals, type OscuLine } from '../src/etims/oscu-tax';
import type { OscuItemRequest, OscuSalesRequest } from '../src/etims/oscu.types';

const SHOP = { tin: 'P051234567X', bhfId: '00', deviceSerial: 'SPC-TEST-0001' };
const CREDENTIALS = { consumerKey: 'test-etims-key', consumerSecret: 'test-etims-secret' };
const SIGNING_KEY = 'test-signing-key';
const registrar = { regrId: 'api', regrNm: 'Shop API', modrId: 'api', modrNm: 'Shop API' };

const tomato: OscuItemRequest = {
  itemCd: 'KE2NTU0000001',
  itemClsCd: '1015150000',
  itemTyCd: '2',
  itemNm: 'Tomato seedlings, tray of 50',
  orgnNatCd: 'KE',
  pkgUnitCd: 'NT',
  qtyUnitCd: 'U',
  taxTyCd: 'B',
  dftPrc: 450,
  isrcAplcbYn: 'N',
  useYn: 'Y',
  ...registrar,
};
const avocado: OscuItemRequest = {
  ...tomato,
  itemCd: 'KE2NTU0000002',
  itemClsCd: '1016150000',
  itemNm: 'Hass avocado grafted seedling',
  taxTyCd: 'A',
  dftPrc: 250,
};

const lineOf = (item: OscuItemRequest, qty: number): OscuLine => ({
  itemCd: item.itemCd,
  itemClsCd: item.itemClsCd,
  itemNm: item.itemNm,
  pkgUnitCd: item.pkgUnitCd,
  qtyUnitCd: item.qtyUnitCd,
  qty,
  unitPrice: item.dftPrc,
  taxTyCd: item.taxTyCd,
});

function saleOf(
  invcNo: number,
  lines: OscuLine[],
  extra: Partial<OscuSalesRequest> = {},
): OscuSalesRequest {
  const itemList = oscuSalesItems(lines);
  const now = new Date();
  return {
    trdInvcNo: `SPC-R-${invcNo}`,
    invcNo,
    orgInvcNo: 0,
    custTin: null,
    custNm: null,
    salesTyCd: 'N',
    rcptTyCd: 'S',
    pmtTyCd: '06',
    salesSttsCd: '02',
    cfmDt: oscuTimestamp(now),
    salesDt: oscuDate(now),
    ...oscuTotals(itemList),
    prchrAcptcYn: 'N',
    ...registrar,
    receipt: { custTin: extra.custTin ?? null, rcptPbctDt: oscuTimestamp(now), prchrAcptcYn: 'N' },
    itemList,
    ...extra,
  };
}

function clientOf(sim: EtimsSimulator, settings: Partial<OscuClientSettings> = {}): OscuClient {
  return new OscuClient({
    baseUrl: sim.apiUrl,
    tokenUrl: sim.tokenUrl,
    ...CREDENTIALS,
    ...SHOP,
    cmcKey: null,
    timeoutMs: 5_000,
    ...settings,
  });
}

async function signed(client: OscuClient, sale: OscuSalesRequest): Promise<OscuSignature> {
  const outcome = await client.sendSale(sale);
  if (outcome.kind !== 'signed') throw new Error(`not signed: ${JSON.stringify(outcome)}`);
  return outcome.signature;
}

describe('eTIMS OSCU simulator and client', () => {
  let sim: EtimsSimulator;
  let client: OscuClient;

  beforeAll(async () => {
    sim = await startEtimsSimulator({ ...CREDENTIALS, signingKey: SIGNING_KEY });
    client = clientOf(sim);
  });
  afterAll(() => sim.close());
  afterEach(() => sim.setScenario('accepted'));

  it('asks for the device to be initialised before anything else', async () => {
    expect(await client.saveItem(tomato)).toMatchObject({ kind: 'unreachable', status: 0 });
    expect(await clientOf(sim, { cmcKey: 'made-up' }).saveItem(tomato)).toEqual({
      kind: 'rejected',
      code: '901',
      message: 'It is not valid device',
    });
  });

  it('initialises the device with the PIN, branch and serial, once', async () => {
    const first = await client.initialise();
    expect(first).toMatchObject({
      kind: 'ok',
      data: { tin: SHOP.tin, bhfId: '00', hqYn: 'Y', sdcId: expect.stringMatching(/^KRACU/) },
    });
    if (first.kind !== 'ok') return;
    expect(client.communicationKey).toBe(first.data.cmcKey);
    expect(client.controlUnit).toEqual({ sdcId: first.data.sdcId, mrcNo: first.data.mrcNo });

    // KRA gives no key a second time; whoever kept the first one goes on with it.
    const again = clientOf(sim, { cmcKey: first.data.cmcKey });
    expect(await again.initialise()).toEqual({
      kind: 'installed',
      message: 'This device is installed',
    });
    expect(again.communicationKey).toBe(first.data.cmcKey);

    expect(await clientOf(sim, { tin: 'P05123' }).initialise()).toMatchObject({
      kind: 'rejected',
      code: '910',
    });
    sim.setScenario('invalid-pin');
    expect(await clientOf(sim, { deviceSerial: 'OTHER' }).initialise()).toMatchObject({
      kind: 'rejected',
      code: '901',
    });
  });

  it('refuses bad credentials and fetches a new token when the old one is forgotten', async () => {
    const wrong = clientOf(sim, { consumerSecret: 'wrong', cmcKey: client.communicationKey });
    expect(await wrong.codeList(new Date('2020-01-01'))).toMatchObject({
      kind: 'unreachable',
      status: 400,
      message: expect.stringContaining('Invalid credentials'),
    });
    const before = sim.state.tokensIssued;
    expect(await client.codeList(new Date('2020-01-01'))).toMatchObject({ kind: 'ok' });
    expect(sim.state.tokensIssued).toBe(before);
    sim.forgetTokens();
    expect(await client.codeList(new Date('2020-01-01'))).toMatchObject({ kind: 'ok' });
    expect(sim.state.tokensIssued).toBe(before + 1);
  });

  it('lists the tax types with their rates, and the item classes', async () => {
    const codes = await client.codeList(new Date('2020-01-01'));
    expect(codes.kind).toBe('ok');
    if (codes.kind !== 'ok') return;
    const taxTypes = codes.data.find((c) => c.cdCls === '04')!.dtlList;
    expect(taxTypes.map((d) => [d.cd, d.userDfnCd1])).toEqual([
      ['A', '0'],
      ['B', '16'],
      ['C', '0'],
      ['D', '0'],
      ['E', '8'],
    ]);
    const classes = await client.itemClasses(new Date('2020-01-01'));
    expect(classes.kind === 'ok' && classes.data.map((c) => c.itemClsCd)).toContain(
      tomato.itemClsCd,
    );
    // Nothing changed since: KRA's "no search result" is an empty list.
    expect(await client.itemClasses(new Date())).toEqual({ kind: 'ok', data: [] });
  });

  it('registers items, refusing an unknown classification with KRA’s code', async () => {
    const refused = await client.saveItem({ ...tomato, itemClsCd: '1234567890' });
    expect(refused).toMatchObject({
      kind: 'rejected',
      code: '910',
      message: expect.stringContaining('itemClsCd 1234567890'),
    });
    expect(await client.saveItem(tomato)).toEqual({ kind: 'ok', data: null });
    expect(await client.saveItem(avocado)).toEqual({ kind: 'ok', data: null });
    const listed = (await (await fetch(`${sim.url}/__simulator/items`)).json()) as {
      items: { itemCd: string }[];
    };
    expect(listed.items.map((i) => i.itemCd)).toEqual([tomato.itemCd, avocado.itemCd]);
  });

  let first: OscuSignature;

  it('signs a sale: the numbers, the signature over its fields, the QR link', async () => {
    const sale = saleOf(1, [lineOf(tomato, 3), lineOf(avocado, 2)]);
    expect(sale).toMatchObject({ taxblAmtB: 1350, taxAmtB: 186.21, taxblAmtA: 500, totAmt: 1850 });
    first = await signed(client, sale);
    expect(first).toMatchObject({
      invcNo: 1,
      rcptNo: 1,
      totRcptNo: 1,
      sdcId: client.controlUnit.sdcId,
      mrcNo: client.controlUnit.mrcNo,
    });
    expect(first.rcptSign).toMatch(/^[A-Z2-7]{16}$/);
    expect(first.intrlData).toMatch(/^[A-Z2-7]{26}$/);
    expect(Date.now() - parseOscuTimestamp(first.signedAt)!.getTime()).toBeLessThan(60_000);

    // The signature is the test key's over the sale's fields: another total would not match it.
    const canonical = receiptCanonical(sale as unknown as Record<string, unknown>, SHOP.tin, '00', {
      rcptNo: 1,
      totRcptNo: 1,
      sdcId: first.sdcId!,
      sdcDateTime: first.signedAt,
    });
    expect(signReceipt(SIGNING_KEY, canonical)).toEqual({
      rcptSign: first.rcptSign,
      intrlData: first.intrlData,
    });
    expect(signReceipt(SIGNING_KEY, canonical.replace('|1850.00|', '|1851.00|')).rcptSign).not.toBe(
      first.rcptSign,
    );

    const link = receiptVerificationUrl(sim.portalUrl, SHOP.tin, '00', first.rcptSign);
    expect(link).toBe(
      `${sim.portalUrl}/common/link/etims/receipt/indexEtimsReceiptData?Data=${SHOP.tin}00${first.rcptSign}`,
    );
    expect(await (await fetch(link)).json()).toMatchObject({
      found: true,
      invcNo: 1,
      trdInvcNo: 'SPC-R-1',
      totAmt: 1850,
    });
  });

  it('answers the same invoice number again as a duplicate with the same signature', async () => {
    const again = await client.sendSale(saleOf(1, [lineOf(tomato, 3), lineOf(avocado, 2)]));
    expect(again).toEqual({
      kind: 'duplicate',
      signature: first,
      message: 'There is an overlapped Data',
    });
    // A reused number with other content is still not signed a second time.
    expect(await client.sendSale(saleOf(1, [lineOf(tomato, 1)]))).toMatchObject({
      kind: 'duplicate',
      signature: { rcptSign: first.rcptSign },
    });
    const listed = (await (await fetch(`${sim.url}/__simulator/invoices`)).json()) as {
      invoices: { invcNo: number; resends: number; conflictingResends: number }[];
    };
    expect(listed.invoices).toEqual([
      expect.objectContaining({ invcNo: 1, resends: 2, conflictingResends: 1 }),
    ]);
    expect(sim.state.branches.get(`${SHOP.tin}/00`)!.counters).toEqual({ S: 1, R: 0, total: 1 });
  });

  it('rejects an item it does not know with KRA’s code and keeps the number free', async () => {
    const unknown = { ...tomato, itemCd: 'KE2NTU0000099', itemNm: 'Mango seedling' };
    const outcome = await client.sendSale(saleOf(2, [lineOf(unknown, 1)]));
    expect(outcome).toEqual({
      kind: 'rejected',
      code: '910',
      message: 'Request parameter error: itemCd KE2NTU0000099 is not registered (saveItem)',
    });
    expect(sim.invoices()).toHaveLength(1);

    // Fixed (the item registered) and resent under the same number: signed.
    expect(await client.saveItem(unknown)).toMatchObject({ kind: 'ok' });
    expect(await signed(client, saleOf(2, [lineOf(unknown, 1)]))).toMatchObject({
      invcNo: 2,
      rcptNo: 2,
      totRcptNo: 2,
    });

    sim.setScenario('unknown-item', { times: 1 });
    expect(await client.sendSale(saleOf(3, [lineOf(tomato, 1)]))).toMatchObject({
      kind: 'rejected',
      code: '910',
      message: expect.stringContaining(`itemCd ${tomato.itemCd} is not registered`),
    });
    expect(await signed(client, saleOf(3, [lineOf(tomato, 1)]))).toMatchObject({ invcNo: 3 });
  });

  it('refuses a sale whose tax breakdown or buyer PIN is wrong', async () => {
    const sale = saleOf(4, [lineOf(tomato, 2)]);
    expect(await client.sendSale({ ...sale, taxAmtB: sale.taxAmtB + 1 })).toMatchObject({
      kind: 'rejected',
      code: '910',
      message: expect.stringContaining('taxAmtB'),
    });
    expect(await client.sendSale({ ...sale, taxRtB: 18 })).toMatchObject({ code: '910' });
    expect(await client.sendSale({ ...sale, custTin: 'A1234' })).toMatchObject({
      kind: 'rejected',
      code: '910',
      message: expect.stringContaining('custTin A1234 is not a KRA PIN'),
    });
    sim.setScenario('invalid-buyer-pin');
    expect(await client.sendSale({ ...sale, custTin: 'A123456789Z' })).toMatchObject({
      kind: 'rejected',
      code: '910',
    });
    sim.setScenario('accepted');
    expect(
      await signed(client, { ...sale, custTin: 'A123456789Z', custNm: 'Kiambu Girls High School' }),
    ).toMatchObject({ invcNo: 4 });
    expect(sim.gaps()).toEqual({ [`${SHOP.tin}/00`]: [] });
  });

  it('signs a credit note against its sale, never above what is left of it', async () => {
    const credit = (invcNo: number, lines: OscuLine[]) =>
      saleOf(invcNo, lines, {
        rcptTyCd: 'R',
        orgInvcNo: 1,
        rfdRsnCd: '06',
        rfdDt: oscuTimestamp(),
      });
    expect(await signed(client, credit(5, [lineOf(tomato, 2)]))).toMatchObject({
      invcNo: 5,
      rcptNo: 1,
      totRcptNo: 5,
    });
    expect(await client.sendSale(credit(6, [lineOf(tomato, 3)]))).toMatchObject({
      kind: 'rejected',
      code: '910',
      message: expect.stringContaining('more than is left of sale 1'),
    });
    expect(
      await client.sendSale({ ...credit(6, [lineOf(tomato, 1)]), orgInvcNo: 99 }),
    ).toMatchObject({
      kind: 'rejected',
      code: '910',
      message: expect.stringContaining('orgInvcNo 99'),
    });
    expect(await signed(client, credit(6, [lineOf(tomato, 1)]))).toMatchObject({ rcptNo: 2 });
  });

  it('is unreachable while offline, then signs the same number once when back', async () => {
    // One call each (not a time: a loaded machine may take longer than any period between calls).
    sim.setScenario('offline', { times: 1 });
    const sale = saleOf(7, [lineOf(avocado, 1)]);
    expect(await client.sendSale(sale)).toMatchObject({ kind: 'unreachable', status: 0 });
    sim.setScenario('unavailable', { times: 1 });
    expect(await client.sendSale(sale)).toEqual({
      kind: 'unreachable',
      status: 503,
      message: 'OSCU answered HTTP 503',
    });
    expect(sim.invoices().map((i) => i.invcNo)).not.toContain(7);
    expect(await signed(client, sale)).toMatchObject({ invcNo: 7 });
    expect(sim.invoices().filter((i) => i.invcNo === 7)).toHaveLength(1);
  });

  it('when slow: an answer lost to the timeout is found again by resending the number', async () => {
    sim.setScenario({ kind: 'slow', delayMs: 300 }, { times: 1 });
    expect(await signed(client, saleOf(8, [lineOf(tomato, 1)]))).toMatchObject({ invcNo: 8 });

    // The client gives up before OSCU answers, but OSCU received and signed the sale.
    const impatient = clientOf(sim, { cmcKey: client.communicationKey, timeoutMs: 300 });
    sim.setScenario({ kind: 'slow', delayMs: 1_200 }, { times: 1 });
    const sale = saleOf(9, [lineOf(tomato, 2)]);
    expect(await impatient.sendSale(sale)).toEqual({
      kind: 'unreachable',
      status: 0,
      message: 'OSCU did not answer in time',
    });
    // OSCU signs it once its delay is over, whatever the client did meanwhile.
    let kept = sim.invoices().find((i) => i.invcNo === 9);
    for (let waited = 0; !kept && waited < 20_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      kept = sim.invoices().find((i) => i.invcNo === 9);
    }
    expect(kept).toBeDefined();
    const resent = await client.sendSale(sale);
    expect(resent).toMatchObject({
      kind: 'duplicate',
      signature: { invcNo: 9, rcptSign: kept!.signature.rcptSign, rcptNo: kept!.signature.rcptNo },
    });
  });

  it('answers a sale as a duplicate when the duplicate scenario says an earlier attempt got through', async () => {
    await fetch(`${sim.url}/__simulator/scenarios`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scenario: 'duplicate', times: 1 }),
    });
    const outcome = await client.sendSale(saleOf(10, [lineOf(avocado, 3)]));
    expect(outcome).toMatchObject({ kind: 'duplicate', signature: { invcNo: 10 } });
    expect(sim.invoices().filter((i) => i.invcNo === 10)).toHaveLength(1);
  });

  it('records stock movements once, and the quantity left', async () => {
    const item = oscuSalesItems([lineOf(tomato, 2)])[0]!;
    const movement = {
      sarNo: 1,
      orgSarNo: 0,
      regTyCd: 'A' as const,
      sarTyCd: '11' as const,
      ocrnDt: oscuDate(),
      totItemCnt: 1,
      totTaxblAmt: item.taxblAmt,
      totTaxAmt: item.taxAmt,
      totAmt: item.totAmt,
      ...registrar,
      itemList: [
        {
          itemSeq: 1,
          itemCd: item.itemCd,
          itemClsCd: item.itemClsCd,
          itemNm: item.itemNm,
          pkgUnitCd: item.pkgUnitCd,
          pkg: item.pkg,
          qtyUnitCd: item.qtyUnitCd,
          qty: item.qty,
          prc: item.prc,
          splyAmt: item.splyAmt,
          totDcAmt: 0,
          taxblAmt: item.taxblAmt,
          taxTyCd: item.taxTyCd,
          taxAmt: item.taxAmt,
          totAmt: item.totAmt,
        },
      ],
    };
    expect(await client.saveStockIo(movement)).toEqual({ kind: 'ok', data: null });
    expect(await client.saveStockIo(movement)).toEqual({
      kind: 'duplicate',
      message: 'There is an overlapped Data',
    });
    expect(
      await client.saveStockMaster({ itemCd: tomato.itemCd, rsdQty: 48, ...registrar }),
    ).toEqual({ kind: 'ok', data: null });
    expect(
      await client.saveStockMaster({ itemCd: 'KE2NTU0000404', rsdQty: 1, ...registrar }),
    ).toMatchObject({ kind: 'rejected', code: '910' });
  });
});

describe('eTIMS OSCU answers in the specification’s field names', () => {
  it('reads rcptNo, vsdcRcptPbctDate, sdcId and mrcNo as well', async () => {
    const sim = await startEtimsSimulator({ answerShape: 'specification', auth: 'none' });
    try {
      const client = clientOf(sim, { tokenUrl: null, consumerKey: null, consumerSecret: null });
      const init = await client.initialise();
      expect(init.kind).toBe('ok');
      expect(await client.saveItem(tomato)).toMatchObject({ kind: 'ok' });
      const signature = await signed(client, saleOf(1, [lineOf(tomato, 1)]));
      expect(signature).toMatchObject({
        invcNo: 1,
        rcptNo: 1,
        totRcptNo: 1,
        sdcId: init.kind === 'ok' ? init.data.sdcId : null,
        signedAt: expect.stringMatching(/^\d{14}$/),
      });
    } finally {
      await sim.close();
    }
  });
});
