/**
 * A local stand-in for KRA's eTIMS Online Sales Control Unit (OSCU, specification v2.0), for the
 * tests, the browser journeys and `npm start` with ETIMS_ENV=sandbox-local. It answers the calls
 * the API makes (docs/etims.md) with OSCU's shapes and result codes:
 *
 *   GET  /v1/token/generate?grant_type=client_credentials   (Basic consumer key:secret)
 *   POST /etims-api/selectInitOsdcInfo                       (Bearer; body tin, bhfId, dvcSrlNo)
 *   POST /etims-api/selectCodeList                           (Bearer + headers tin, bhfId, cmcKey)
 *   POST /etims-api/selectItemClsList
 *   POST /etims-api/saveItem
 *   POST /etims-api/saveTrnsSalesOsdc                        (sales and credit notes, signed)
 *   POST /etims-api/insertStockIO
 *   POST /etims-api/saveStockMaster
 *   GET  /common/link/etims/receipt/indexEtimsReceiptData?Data=<PIN><branch><rcptSign>  (the QR link)
 *
 * It keeps each branch's state (devices, registered items, the invoices received by number, the
 * receipt counters, stock), checks every field it can (required fields, formats, the tax
 * breakdown, registered items, a credit note against its sale) and signs each accepted sale with a
 * test key: HMAC-SHA256 over the sale's canonical fields gives `rcptSign` and `intrlData`. An
 * invoice number received before is answered with result 994 and the signature it got the first
 * time, never a second receipt. What happens is chosen by whoever drives the test:
 *
 *   POST /__simulator/scenarios  { "scenario": "offline", "forMs": 60000 }
 *   POST /__simulator/scenarios  { "scenario": { "kind": "slow", "delayMs": 5000 }, "times": 1 }
 *   GET  /__simulator/invoices   what it received (?tin=&bhfId=), and the gaps in each branch's numbers
 *   GET  /__simulator/items, GET /__simulator/stock, POST /__simulator/reset
 *
 * Scenarios: accepted (the default), invalid-pin (KRA does not know the shop's PIN and device: 901
 * on every call), invalid-buyer-pin (a sale naming a buyer's PIN: 910), unknown-item (a sale: 910,
 * its item not registered), rejected (any code, on sales or on every call), offline (the connection
 * is dropped without an answer), unavailable (HTTP 503), slow (the answer waits; what was sent is
 * still received and signed), duplicate (a sale is received and signed but answered as a
 * duplicate, as when an earlier attempt's answer was lost). `times` limits a scenario to the next
 * calls it applies to, `forMs` to a period; then it is accepted again.
 *
 * Run alone: npx tsx tools/etims/simulator.ts  (ETIMS_SIMULATOR_PORT, default 4030;
 * ETIMS_SIMULATOR_CMC_KEY, default local-cmc-key-not-secret; ETIMS_SIMULATOR_ANSWER_SHAPE, default
 * specification: its sales' answers carry the control unit id, which an API run with the local
 * ETIMS_CMC_KEY never initialises the device to learn, so the CU number reads `<sdcId>/<rcptNo>`)
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type TaxType = 'A' | 'B' | 'C' | 'D' | 'E';
const TAX_TYPES: readonly TaxType[] = ['A', 'B', 'C', 'D', 'E'];
const TAX_RATES: Record<TaxType, number> = { A: 0, B: 16, C: 0, D: 0, E: 8 };

/** KRA's result codes and texts (code definition "API Response Code"). */
export const RESULT = {
  success: '000',
  noSearchResult: '001',
  noHeader: '900',
  invalidDevice: '901',
  deviceInstalled: '902',
  parameterError: '910',
  noRequestBody: '911',
  duplicate: '994',
  unknownError: '999',
} as const;
const MESSAGES: Record<string, string> = {
  '000': 'It is succeeded',
  '001': 'There is no search result',
  '900': 'There is no Header information',
  '901': 'It is not valid device',
  '902': 'This device is installed',
  '910': 'Request parameter error',
  '911': 'There is no request full text',
  '994': 'There is an overlapped Data',
  '999': 'There is an unknown error. Please ask the administrator',
};

export type Scenario =
  | { kind: 'accepted' }
  | { kind: 'invalid-pin' }
  | { kind: 'invalid-buyer-pin' }
  | { kind: 'unknown-item' }
  | { kind: 'rejected'; code: string; message?: string; on?: 'sales' | 'all' }
  | { kind: 'offline'; mode: 'drop' | '503' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'duplicate' };

export type ScenarioName =
  | 'accepted'
  | 'invalid-pin'
  | 'invalid-buyer-pin'
  | 'unknown-item'
  | 'offline'
  | 'unavailable'
  | 'slow'
  | 'duplicate';

const NAMED: Record<ScenarioName, Scenario> = {
  accepted: { kind: 'accepted' },
  'invalid-pin': { kind: 'invalid-pin' },
  'invalid-buyer-pin': { kind: 'invalid-buyer-pin' },
  'unknown-item': { kind: 'unknown-item' },
  offline: { kind: 'offline', mode: 'drop' },
  unavailable: { kind: 'offline', mode: '503' },
  slow: { kind: 'slow', delayMs: 3000 },
  duplicate: { kind: 'duplicate' },
};

export interface ScenarioOptions {
  /** Only the next this many calls the scenario applies to; then accepted again. */
  times?: number;
  /** Only for this long; then accepted again. */
  forMs?: number;
}

/** What OSCU gave a signed sale. */
export interface SimulatedSignature {
  rcptNo: number;
  totRcptNo: number;
  intrlData: string;
  rcptSign: string;
  sdcDateTime: string;
  sdcId: string;
  mrcNo: string;
}

export interface SimulatedInvoice {
  tin: string;
  bhfId: string;
  invcNo: number;
  trdInvcNo: string;
  rcptTyCd: 'S' | 'R';
  orgInvcNo: number;
  custTin: string | null;
  totAmt: number;
  receivedAt: string;
  signature: SimulatedSignature;
  /** Times the same number came again (each answered 994). */
  resends: number;
  /** Of those, the ones whose content differed from the first. */
  conflictingResends: number;
  request: Record<string, unknown>;
  /** A hash of the first request's content, to tell a true resend from a reused number. */
  contentHash: string;
}

interface Device {
  dvcSrlNo: string;
  dvcId: string;
  sdcId: string;
  mrcNo: string;
  cmcKey: string;
}

export interface SimulatedBranch {
  tin: string;
  bhfId: string;
  devices: Map<string, Device>;
  items: Map<string, Record<string, unknown>>;
  invoices: Map<number, SimulatedInvoice>;
  counters: { S: number; R: number; total: number };
  stockMovements: Map<number, Record<string, unknown>>;
  stockMaster: Map<string, number>;
}

export interface EtimsSimulatorState {
  /** By `<tin>/<bhfId>`. */
  branches: Map<string, SimulatedBranch>;
  /** Every OSCU call, in order, with what it was answered (null: no answer). */
  calls: { route: string; resultCd: string | null; at: string }[];
  tokensIssued: number;
}

export interface ItemClassification {
  itemClsCd: string;
  itemClsNm: string;
  itemClsLvl: number;
  taxTyCd: TaxType | null;
  mjrTgYn: 'Y' | 'N' | null;
  useYn: 'Y' | 'N';
}

export interface EtimsSimulatorOptions {
  port?: number;
  host?: string;
  /** `oauth` (the default) asks a Bearer token of every OSCU call; `none` asks none. */
  auth?: 'oauth' | 'none';
  /** When set, the token call must carry exactly these credentials. */
  consumerKey?: string;
  consumerSecret?: string;
  /** When set, only these devices can be initialised (otherwise any well-formed PIN, branch, serial). */
  devices?: { tin: string; bhfId: string; dvcSrlNo: string }[];
  /**
   * Every device's communication key; random per device when unset. With it set, a call carrying
   * it is accepted even before the device was initialised here (the simulator restarted, the API
   * kept its key).
   */
  cmcKey?: string;
  /** The key sales are signed with. */
  signingKey?: string;
  /** `collection` (the default): KRA's Postman collection's `curRcptNo`/`sdcDateTime`; `specification`: `rcptNo`/`vsdcRcptPbctDate`/`sdcId`/`mrcNo`. */
  answerShape?: 'collection' | 'specification';
  /** The item classifications it knows (a few plant and seed classes by default). */
  itemClasses?: ItemClassification[];
  log?: (message: string) => void;
}

export interface EtimsSimulator {
  url: string;
  port: number;
  /** OSCU's base URL (what ETIMS_BASE_URL names). */
  apiUrl: string;
  /** The OAuth token URL. */
  tokenUrl: string;
  /** The origin of the receipt check page the QR link opens. */
  portalUrl: string;
  state: EtimsSimulatorState;
  setScenario(scenario: ScenarioName | Scenario, options?: ScenarioOptions): void;
  invoices(filter?: { tin?: string; bhfId?: string }): SimulatedInvoice[];
  /** The numbers missing from each branch's sequence of invoice numbers (by `<tin>/<bhfId>`). */
  gaps(): Record<string, number[]>;
  /** Forgets every OAuth token given, as KRA's gateway does after a restart. */
  forgetTokens(): void;
  reset(): void;
  close(): Promise<void>;
}

/** The day the built-in code lists were last changed: asking for changes after it finds none. */
const LISTS_CHANGED = '20240101000000';

const DEFAULT_ITEM_CLASSES: ItemClassification[] = [
  cls('1015150000', 'Vegetable seeds and seedlings', 4),
  cls('1015190000', 'Flower seeds and bulbs and seedlings and cuttings', 4),
  cls('1015200000', 'Tree and shrub seeds and cuttings', 4),
  cls('1016150000', 'Trees and shrubs', 4),
  cls('1016160000', 'Floral plants', 4),
  cls('1017150000', 'Organic fertilizers and plant nutrients', 4),
  cls('7810180000', 'Road cargo transport (delivery)', 4),
  cls('5059690800', 'Sample item class of the KRA collection', 5, 'B'),
  cls('9999999999', 'Withdrawn class', 5, null, 'N'),
];

function cls(
  itemClsCd: string,
  itemClsNm: string,
  itemClsLvl: number,
  taxTyCd: TaxType | null = null,
  useYn: 'Y' | 'N' = 'Y',
): ItemClassification {
  return { itemClsCd, itemClsNm, itemClsLvl, taxTyCd, mjrTgYn: 'N', useYn };
}

function codeClass(cdCls: string, cdClsNm: string, details: [string, string, string?][]) {
  return {
    cdCls,
    cdClsNm,
    cdClsDesc: null,
    useYn: 'Y',
    userDfnNm1: cdCls === '04' ? 'TaxRate' : null,
    userDfnNm2: null,
    userDfnNm3: null,
    dtlList: details.map(([cd, cdNm, userDfnCd1], index) => ({
      cd,
      cdNm,
      cdDesc: cdNm,
      useYn: 'Y',
      srtOrd: index + 1,
      userDfnCd1: userDfnCd1 ?? null,
      userDfnCd2: null,
      userDfnCd3: null,
    })),
  };
}

/** The code classes the shop uses; 04 is KRA's number for tax types, the others are KRA's usual ones. */
const CODE_LIST = [
  codeClass('04', 'Taxation Type', [
    ['A', 'A-Exempt', '0'],
    ['B', 'B-16.00%', '16'],
    ['C', 'C-0%', '0'],
    ['D', 'D-Non-VAT', '0'],
    ['E', 'E-8%', '8'],
  ]),
  codeClass('05', 'Country', [['KE', 'KENYA']]),
  codeClass('07', 'Payment Type', [
    ['01', 'CASH'],
    ['02', 'CREDIT'],
    ['03', 'CASH/CREDIT'],
    ['04', 'BANK CHECK'],
    ['05', 'DEBIT&CREDIT CARD'],
    ['06', 'MOBILE MONEY'],
    ['07', 'OTHER'],
  ]),
  codeClass('10', 'Quantity Unit', [
    ['U', 'Pieces/item [Number]'],
    ['KG', 'Kilo-Gramme'],
  ]),
  codeClass('17', 'Packing Unit', [
    ['NT', 'Net'],
    ['BG', 'Bag'],
    ['BX', 'Box'],
  ]),
  codeClass('24', 'Item Type', [
    ['1', 'Raw Material'],
    ['2', 'Finished Product'],
    ['3', 'Service'],
  ]),
  codeClass('32', 'Credit Note Reason', [
    ['01', 'Missing Quantity'],
    ['02', 'Missing data'],
    ['03', 'Damaged'],
    ['04', 'Wasted'],
    ['05', 'Raw Material Shortage'],
    ['06', 'Refund'],
  ]),
];

const PIN = /^[AP]\d{9}[A-Z]$/;
const TIMESTAMP = /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])[0-5]\d[0-5]\d$/;
const DAY = /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;
const STOCK_TYPES = ['01', '02', '03', '04', '05', '06', '11', '12', '13', '14', '15', '16'];

/** `yyyyMMddHHmmss` in Nairobi time (UTC+3), as OSCU writes times. */
export function oscuTimestamp(at = new Date()): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

const cents = (value: unknown) => Math.round(Number(value) * 100);
const money = (value: unknown) => (Number(value) || 0).toFixed(2);

/** The fields of a sale a signature covers, in a fixed order. */
export function receiptCanonical(
  sale: Record<string, unknown>,
  tin: string,
  bhfId: string,
  signed: Pick<SimulatedSignature, 'rcptNo' | 'totRcptNo' | 'sdcId' | 'sdcDateTime'>,
): string {
  return [
    tin,
    bhfId,
    sale.invcNo,
    sale.orgInvcNo,
    sale.rcptTyCd,
    sale.custTin ?? '',
    sale.salesDt,
    sale.cfmDt,
    ...TAX_TYPES.map((t) => money(sale[`taxblAmt${t}`])),
    ...TAX_TYPES.map((t) => money(sale[`taxAmt${t}`])),
    money(sale.totAmt),
    signed.rcptNo,
    signed.totRcptNo,
    signed.sdcId,
    signed.sdcDateTime,
  ].join('|');
}

/** The test key's signature of a canonical sale: `rcptSign` (16 characters) and `intrlData` (26). */
export function signReceipt(
  key: string,
  canonical: string,
): { rcptSign: string; intrlData: string } {
  const mac = (label: string) => createHmac('sha256', key).update(`${label}|${canonical}`).digest();
  return {
    rcptSign: base32(mac('rcptSign')).slice(0, 16),
    intrlData: base32(mac('intrlData')).slice(0, 26),
  };
}

/** JSON with its keys sorted, so two sends of the same content hash the same. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

const isText = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' && v.length <= max;
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown, min = 0) => Number.isInteger(v) && (v as number) >= min;

/** The first missing or malformed registrar field (KRA asks who registered and changed a record). */
function registrarProblem(body: Record<string, unknown>): string | null {
  for (const [field, max] of [
    ['regrId', 20],
    ['regrNm', 60],
    ['modrId', 20],
    ['modrNm', 60],
  ] as const)
    if (!isText(body[field], max)) return `${field} is required (at most ${max} characters)`;
  return null;
}

function notFuture(value: string, field: string): string | null {
  // Five minutes for the clocks of two machines to disagree.
  const now = oscuTimestamp(new Date(Date.now() + 5 * 60_000));
  return value > now.slice(0, value.length) ? `${field} ${value} is in the future` : null;
}

/** Checks a sale or credit note on its own (formats, lines, the tax breakdown); null when sound. */
export function saleProblem(sale: Record<string, unknown>): string | null {
  const { trdInvcNo, invcNo, orgInvcNo, rcptTyCd, cfmDt, salesDt, itemList, receipt } = sale;
  if (!(isText(trdInvcNo, 50) || isCount(trdInvcNo, 1))) return 'trdInvcNo is required';
  if (!isCount(invcNo, 1)) return 'invcNo must be a whole number from 1';
  if (!isCount(orgInvcNo)) return 'orgInvcNo must be a whole number (0 for a sale)';
  if (rcptTyCd !== 'S' && rcptTyCd !== 'R') return 'rcptTyCd must be S (sale) or R (credit note)';
  if (rcptTyCd === 'S' && orgInvcNo !== 0) return 'orgInvcNo must be 0 on a sale';
  if (rcptTyCd === 'R' && orgInvcNo === 0)
    return 'orgInvcNo must name the sale a credit note credits';
  if (rcptTyCd === 'R' && !['01', '02', '03', '04', '05', '06'].includes(String(sale.rfdRsnCd)))
    return 'rfdRsnCd (01-06) is required on a credit note';
  if (!['01', '02', '03', '04', '05', '06'].includes(String(sale.salesSttsCd)))
    return 'salesSttsCd must be 01-06';
  if (
    sale.pmtTyCd != null &&
    !['01', '02', '03', '04', '05', '06', '07'].includes(String(sale.pmtTyCd))
  )
    return 'pmtTyCd must be 01-07';
  if (typeof cfmDt !== 'string' || !TIMESTAMP.test(cfmDt)) return 'cfmDt must be yyyyMMddHHmmss';
  if (typeof salesDt !== 'string' || !DAY.test(salesDt)) return 'salesDt must be yyyyMMdd';
  const future = notFuture(cfmDt, 'cfmDt') ?? notFuture(salesDt, 'salesDt');
  if (future) return future;
  if (sale.custTin != null && sale.custTin !== '' && !PIN.test(String(sale.custTin)))
    return `custTin ${String(sale.custTin)} is not a KRA PIN (A or P, 9 digits, a letter)`;
  if (sale.custNm != null && (typeof sale.custNm !== 'string' || sale.custNm.length > 60))
    return 'custNm is at most 60 characters';
  if (sale.prchrAcptcYn !== 'Y' && sale.prchrAcptcYn !== 'N') return 'prchrAcptcYn must be Y or N';
  const registrar = registrarProblem(sale);
  if (registrar) return registrar;
  if (!receipt || typeof receipt !== 'object') return 'receipt is required';
  const r = receipt as Record<string, unknown>;
  if (typeof r.rcptPbctDt !== 'string' || !TIMESTAMP.test(r.rcptPbctDt))
    return 'receipt.rcptPbctDt must be yyyyMMddHHmmss';
  if (r.prchrAcptcYn !== 'Y' && r.prchrAcptcYn !== 'N')
    return 'receipt.prchrAcptcYn must be Y or N';
  if (!Array.isArray(itemList) || itemList.length === 0)
    return 'itemList must name at least one item';
  if (sale.totItemCnt !== itemList.length) return `totItemCnt must be ${itemList.length}`;

  const taxable: Record<TaxType, number> = { A: 0, B: 0, C: 0, D: 0, E: 0 };
  const tax: Record<TaxType, number> = { A: 0, B: 0, C: 0, D: 0, E: 0 };
  let total = 0;
  for (const [index, raw] of (itemList as unknown[]).entries()) {
    if (!raw || typeof raw !== 'object') return `itemList[${index}] is not an item`;
    const item = raw as Record<string, unknown>;
    const at = `itemList[${index}]`;
    if (item.itemSeq !== index + 1) return `${at}.itemSeq must be ${index + 1}`;
    for (const [field, max] of [
      ['itemCd', 20],
      ['itemNm', 200],
      ['pkgUnitCd', 5],
      ['qtyUnitCd', 5],
    ] as const)
      if (!isText(item[field], max)) return `${at}.${field} is required`;
    for (const field of [
      'pkg',
      'qty',
      'prc',
      'splyAmt',
      'dcRt',
      'dcAmt',
      'taxblAmt',
      'taxAmt',
      'totAmt',
    ])
      if (!isNumber(item[field]) || (item[field] as number) < 0)
        return `${at}.${field} must be a number, not negative`;
    if ((item.qty as number) <= 0) return `${at}.qty must be more than 0`;
    const type = item.taxTyCd as TaxType;
    if (!TAX_TYPES.includes(type)) return `${at}.taxTyCd must be A-E`;
    const supply = cents(item.splyAmt);
    if (Math.abs(supply - Math.round(cents(item.prc) * (item.qty as number))) > 1)
      return `${at}.splyAmt must be prc × qty`;
    const lineTaxable = cents(item.taxblAmt);
    if (Math.abs(lineTaxable - (supply - cents(item.dcAmt))) > 1)
      return `${at}.taxblAmt must be splyAmt − dcAmt`;
    const rate = TAX_RATES[type];
    if (Math.abs(cents(item.taxAmt) - Math.round((lineTaxable * rate) / (100 + rate))) > 1)
      return `${at}.taxAmt must be the ${rate} % tax inside taxblAmt`;
    if (Math.abs(cents(item.totAmt) - lineTaxable) > 1) return `${at}.totAmt must be taxblAmt`;
    taxable[type] += lineTaxable;
    tax[type] += cents(item.taxAmt);
    total += cents(item.totAmt);
  }
  const lines = itemList.length;
  for (const type of TAX_TYPES) {
    for (const field of [`taxblAmt${type}`, `taxRt${type}`, `taxAmt${type}`])
      if (!isNumber(sale[field])) return `${field} is required`;
    if (sale[`taxRt${type}`] !== TAX_RATES[type]) return `taxRt${type} must be ${TAX_RATES[type]}`;
    if (Math.abs(cents(sale[`taxblAmt${type}`]) - taxable[type]) > lines)
      return `taxblAmt${type} must be the sum of the type ${type} lines`;
    if (Math.abs(cents(sale[`taxAmt${type}`]) - tax[type]) > lines)
      return `taxAmt${type} must be the sum of the type ${type} lines`;
  }
  const sum = (prefix: string) => TAX_TYPES.reduce((s, t) => s + cents(sale[`${prefix}${t}`]), 0);
  if (!isNumber(sale.totTaxblAmt) || Math.abs(cents(sale.totTaxblAmt) - sum('taxblAmt')) > 1)
    return 'totTaxblAmt must be taxblAmtA + … + taxblAmtE';
  if (!isNumber(sale.totTaxAmt) || Math.abs(cents(sale.totTaxAmt) - sum('taxAmt')) > 1)
    return 'totTaxAmt must be taxAmtA + … + taxAmtE';
  if (!isNumber(sale.totAmt) || Math.abs(cents(sale.totAmt) - total) > lines)
    return 'totAmt must be the sum of the lines';
  return null;
}

function itemProblem(item: Record<string, unknown>, classes: ItemClassification[]): string | null {
  for (const [field, max] of [
    ['itemCd', 20],
    ['itemClsCd', 10],
    ['itemNm', 200],
    ['orgnNatCd', 5],
    ['pkgUnitCd', 5],
    ['qtyUnitCd', 5],
  ] as const)
    if (!isText(item[field], max)) return `${field} is required (at most ${max} characters)`;
  if (!['1', '2', '3'].includes(String(item.itemTyCd))) return 'itemTyCd must be 1, 2 or 3';
  if (!TAX_TYPES.includes(item.taxTyCd as TaxType)) return 'taxTyCd must be A-E';
  if (!isNumber(item.dftPrc) || (item.dftPrc as number) < 0) return 'dftPrc must be a price';
  if (item.isrcAplcbYn !== 'Y' && item.isrcAplcbYn !== 'N') return 'isrcAplcbYn must be Y or N';
  if (item.useYn !== 'Y' && item.useYn !== 'N') return 'useYn must be Y or N';
  const known = classes.find((c) => c.itemClsCd === item.itemClsCd);
  if (!known || known.useYn !== 'Y')
    return `itemClsCd ${String(item.itemClsCd)} is not an item classification in use`;
  return registrarProblem(item);
}

function stockProblem(movement: Record<string, unknown>, branch: SimulatedBranch): string | null {
  if (!isCount(movement.sarNo, 1)) return 'sarNo must be a whole number from 1';
  if (!isCount(movement.orgSarNo)) return 'orgSarNo must be a whole number';
  if (movement.regTyCd !== 'A' && movement.regTyCd !== 'M') return 'regTyCd must be A or M';
  if (!STOCK_TYPES.includes(String(movement.sarTyCd))) return 'sarTyCd is not a stock in/out type';
  if (typeof movement.ocrnDt !== 'string' || !DAY.test(movement.ocrnDt))
    return 'ocrnDt must be yyyyMMdd';
  const items = movement.itemList;
  if (!Array.isArray(items) || items.length === 0) return 'itemList must name at least one item';
  if (movement.totItemCnt !== items.length) return `totItemCnt must be ${items.length}`;
  let total = 0;
  for (const [index, raw] of (items as Record<string, unknown>[]).entries()) {
    const at = `itemList[${index}]`;
    if (!raw || typeof raw !== 'object') return `${at} is not an item`;
    if (raw.itemSeq !== index + 1) return `${at}.itemSeq must be ${index + 1}`;
    for (const field of ['itemClsCd', 'itemNm', 'pkgUnitCd', 'qtyUnitCd'])
      if (!isText(raw[field], 200)) return `${at}.${field} is required`;
    for (const field of [
      'pkg',
      'qty',
      'prc',
      'splyAmt',
      'totDcAmt',
      'taxblAmt',
      'taxAmt',
      'totAmt',
    ])
      if (!isNumber(raw[field])) return `${at}.${field} must be a number`;
    if (!TAX_TYPES.includes(raw.taxTyCd as TaxType)) return `${at}.taxTyCd must be A-E`;
    if (raw.itemCd != null && !branch.items.has(String(raw.itemCd)))
      return `${at}.itemCd ${String(raw.itemCd)} is not registered (saveItem)`;
    total += cents(raw.totAmt);
  }
  for (const field of ['totTaxblAmt', 'totTaxAmt', 'totAmt'])
    if (!isNumber(movement[field])) return `${field} is required`;
  if (Math.abs(cents(movement.totAmt) - total) > items.length)
    return 'totAmt must be the sum of the lines';
  return registrarProblem(movement);
}

export async function startEtimsSimulator(
  options: EtimsSimulatorOptions = {},
): Promise<EtimsSimulator> {
  const log = options.log ?? (() => undefined);
  const signingKey = options.signingKey ?? 'spc-etims-simulator-test-key';
  const classes = options.itemClasses ?? DEFAULT_ITEM_CLASSES;
  const auth = options.auth ?? 'oauth';
  const tokens = new Map<string, number>();
  const state: EtimsSimulatorState = { branches: new Map(), calls: [], tokensIssued: 0 };
  let active: { scenario: Scenario; times: number | null; until: number | null } = {
    scenario: NAMED.accepted,
    times: null,
    until: null,
  };
  let devicesMade = 0;

  const toScenario = (s: ScenarioName | Scenario): Scenario => {
    if (typeof s !== 'string') {
      if (!s || typeof s !== 'object' || !('kind' in s)) throw new Error('unknown scenario');
      return s;
    }
    const named = NAMED[s];
    if (!named) throw new Error(`unknown scenario ${s}`);
    return named;
  };
  const setScenario = (s: ScenarioName | Scenario, o: ScenarioOptions = {}) => {
    active = {
      scenario: toScenario(s),
      times: o.times ?? null,
      until: o.forMs !== undefined ? Date.now() + o.forMs : null,
    };
    log(`scenario ${active.scenario.kind}`);
  };
  /** The scenario in force (back to accepted once its period or its count is over). */
  const current = (): Scenario => {
    if (active.until !== null && Date.now() >= active.until) setScenario('accepted');
    if (active.times !== null && active.times <= 0) setScenario('accepted');
    return active.scenario;
  };
  /** The scenario for an OSCU call to `route`, counted as used when it applies. */
  const scenarioFor = (route: string): Scenario => {
    const s = current();
    const sale = route === 'saveTrnsSalesOsdc';
    const applies =
      s.kind === 'offline' || s.kind === 'slow' || s.kind === 'invalid-pin'
        ? true
        : s.kind === 'rejected'
          ? s.on === 'all' || sale
          : s.kind === 'accepted'
            ? false
            : sale;
    if (!applies) return NAMED.accepted;
    if (active.times !== null) active.times -= 1;
    return s;
  };

  const branchKey = (tin: string, bhfId: string) => `${tin}/${bhfId}`;
  const branchOf = (tin: string, bhfId: string): SimulatedBranch => {
    const key = branchKey(tin, bhfId);
    let branch = state.branches.get(key);
    if (!branch) {
      branch = {
        tin,
        bhfId,
        devices: new Map(),
        items: new Map(),
        invoices: new Map(),
        counters: { S: 0, R: 0, total: 0 },
        stockMovements: new Map(),
        stockMaster: new Map(),
      };
      state.branches.set(key, branch);
    }
    return branch;
  };
  const install = (branch: SimulatedBranch, dvcSrlNo: string): Device => {
    devicesMade += 1;
    const n = String(devicesMade).padStart(7, '0');
    const device: Device = {
      dvcSrlNo,
      dvcId: `99999${n}0001`.slice(0, 16),
      sdcId: `KRACU01${n}`,
      mrcNo: `WIS01${n}`,
      cmcKey: options.cmcKey ?? randomBytes(16).toString('hex'),
    };
    branch.devices.set(dvcSrlNo, device);
    return device;
  };

  const envelope = (resultCd: string, data: unknown = null, detail?: string) => ({
    resultCd,
    resultMsg: detail ? `${MESSAGES[resultCd] ?? 'Error'}: ${detail}` : (MESSAGES[resultCd] ?? ''),
    resultDt: oscuTimestamp(),
    data,
  });

  const salesAnswer = (sig: SimulatedSignature) =>
    options.answerShape === 'specification'
      ? {
          rcptNo: sig.rcptNo,
          intrlData: sig.intrlData,
          rcptSign: sig.rcptSign,
          totRcptNo: sig.totRcptNo,
          vsdcRcptPbctDate: sig.sdcDateTime,
          sdcId: sig.sdcId,
          mrcNo: sig.mrcNo,
        }
      : {
          curRcptNo: String(sig.rcptNo),
          totRcptNo: String(sig.totRcptNo),
          intrlData: sig.intrlData,
          rcptSign: sig.rcptSign,
          sdcDateTime: sig.sdcDateTime,
        };

  /** Receives, numbers and signs a sale that passed every check. */
  const receive = (
    branch: SimulatedBranch,
    device: Device,
    sale: Record<string, unknown>,
  ): SimulatedInvoice => {
    const type = sale.rcptTyCd as 'S' | 'R';
    branch.counters[type] += 1;
    branch.counters.total += 1;
    const partial = {
      rcptNo: branch.counters[type],
      totRcptNo: branch.counters.total,
      sdcId: device.sdcId,
      mrcNo: device.mrcNo,
      sdcDateTime: oscuTimestamp(),
    };
    const signed = signReceipt(
      signingKey,
      receiptCanonical(sale, branch.tin, branch.bhfId, partial),
    );
    const invoice: SimulatedInvoice = {
      tin: branch.tin,
      bhfId: branch.bhfId,
      invcNo: sale.invcNo as number,
      trdInvcNo: String(sale.trdInvcNo),
      rcptTyCd: type,
      orgInvcNo: sale.orgInvcNo as number,
      custTin: typeof sale.custTin === 'string' && sale.custTin ? sale.custTin : null,
      totAmt: sale.totAmt as number,
      receivedAt: new Date().toISOString(),
      signature: { ...partial, ...signed },
      resends: 0,
      conflictingResends: 0,
      request: sale,
      contentHash: createHash('sha256').update(stable(sale)).digest('hex'),
    };
    branch.invoices.set(invoice.invcNo, invoice);
    log(`${branch.tin}/${branch.bhfId} ${type} ${invoice.invcNo} signed ${signed.rcptSign}`);
    return invoice;
  };

  /** The OSCU endpoints after the token, headers and scenario were dealt with. */
  const business = (
    name: string,
    body: Record<string, unknown>,
    branch: SimulatedBranch,
    device: Device,
    scenario: Scenario,
  ): { status: number; body: unknown } => {
    const ok = (data: unknown = null) => ({ status: 200, body: envelope(RESULT.success, data) });
    const refuse = (code: string, detail?: string) => ({
      status: 200,
      body: envelope(code, null, detail),
    });

    if (name === 'selectCodeList' || name === 'selectItemClsList') {
      if (typeof body.lastReqDt !== 'string' || !TIMESTAMP.test(body.lastReqDt))
        return refuse(RESULT.parameterError, 'lastReqDt must be yyyyMMddHHmmss');
      if (body.lastReqDt >= LISTS_CHANGED) return refuse(RESULT.noSearchResult);
      return ok(name === 'selectCodeList' ? { clsList: CODE_LIST } : { itemClsList: classes });
    }

    if (name === 'saveItem') {
      const problem = itemProblem(body, classes);
      if (problem) return refuse(RESULT.parameterError, problem);
      branch.items.set(String(body.itemCd), body);
      return ok();
    }

    if (name === 'insertStockIO') {
      const problem = stockProblem(body, branch);
      if (problem) return refuse(RESULT.parameterError, problem);
      if (branch.stockMovements.has(body.sarNo as number)) return refuse(RESULT.duplicate);
      branch.stockMovements.set(body.sarNo as number, body);
      return ok();
    }

    if (name === 'saveStockMaster') {
      if (!isText(body.itemCd, 20) || !branch.items.has(String(body.itemCd)))
        return refuse(
          RESULT.parameterError,
          `itemCd ${String(body.itemCd)} is not registered (saveItem)`,
        );
      if (!isNumber(body.rsdQty) || (body.rsdQty as number) < 0)
        return refuse(RESULT.parameterError, 'rsdQty must be a quantity');
      const registrar = registrarProblem(body);
      if (registrar) return refuse(RESULT.parameterError, registrar);
      branch.stockMaster.set(String(body.itemCd), body.rsdQty as number);
      return ok();
    }

    // saveTrnsSalesOsdc: a number received before is a duplicate, whatever else it carries.
    const earlier = isCount(body.invcNo, 1)
      ? branch.invoices.get(body.invcNo as number)
      : undefined;
    if (earlier) {
      earlier.resends += 1;
      if (createHash('sha256').update(stable(body)).digest('hex') !== earlier.contentHash)
        earlier.conflictingResends += 1;
      log(`${branch.tin}/${branch.bhfId} invoice ${earlier.invcNo} again: duplicate`);
      return {
        status: 200,
        body: envelope(RESULT.duplicate, salesAnswer(earlier.signature)),
      };
    }
    const problem = saleProblem(body);
    if (problem) return refuse(RESULT.parameterError, problem);
    if (scenario.kind === 'invalid-buyer-pin' && body.custTin)
      return refuse(
        RESULT.parameterError,
        `custTin ${String(body.custTin)} is not a valid PIN in KRA's register`,
      );
    for (const item of body.itemList as Record<string, unknown>[]) {
      const registered = branch.items.get(String(item.itemCd));
      if (!registered || scenario.kind === 'unknown-item')
        return refuse(
          RESULT.parameterError,
          `itemCd ${String(item.itemCd)} is not registered (saveItem)`,
        );
      if (registered.useYn !== 'Y')
        return refuse(RESULT.parameterError, `itemCd ${String(item.itemCd)} is not in use`);
      if (registered.taxTyCd !== item.taxTyCd)
        return refuse(
          RESULT.parameterError,
          `itemCd ${String(item.itemCd)} is registered with tax type ${String(registered.taxTyCd)}, not ${String(item.taxTyCd)}`,
        );
      if (registered.itemClsCd !== item.itemClsCd)
        return refuse(
          RESULT.parameterError,
          `itemCd ${String(item.itemCd)} is registered in class ${String(registered.itemClsCd)}, not ${String(item.itemClsCd)}`,
        );
    }
    if (body.rcptTyCd === 'R') {
      const original = branch.invoices.get(body.orgInvcNo as number);
      if (!original || original.rcptTyCd !== 'S')
        return refuse(
          RESULT.parameterError,
          `orgInvcNo ${String(body.orgInvcNo)} is not a sale of this branch`,
        );
      const credited = [...branch.invoices.values()]
        .filter((i) => i.rcptTyCd === 'R' && i.orgInvcNo === original.invcNo)
        .reduce((sum, i) => sum + cents(i.totAmt), 0);
      if (cents(body.totAmt) > cents(original.totAmt) - credited)
        return refuse(
          RESULT.parameterError,
          `totAmt is more than is left of sale ${original.invcNo} to credit`,
        );
    }
    const invoice = receive(branch, device, body);
    return {
      status: 200,
      body: envelope(
        scenario.kind === 'duplicate' ? RESULT.duplicate : RESULT.success,
        salesAnswer(invoice.signature),
      ),
    };
  };

  const bearerOk = (req: IncomingMessage) => {
    if (auth === 'none') return true;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = token ? tokens.get(token) : undefined;
    return expires !== undefined && expires > Date.now();
  };

  const oscu = async (
    name: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<string | null> => {
    const raw = await readBody(req);
    if (!bearerOk(req)) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ fault: { faultstring: 'Invalid Access Token' } }));
      return null;
    }
    const scenario = scenarioFor(name);
    if (scenario.kind === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, scenario.delayMs));
    }
    if (!raw.trim()) return reply(res, 200, envelope(RESULT.noRequestBody));
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
      body = parsed as Record<string, unknown>;
    } catch {
      return reply(
        res,
        200,
        envelope(RESULT.parameterError, null, 'the body is not a JSON object'),
      );
    }
    if (scenario.kind === 'invalid-pin') return reply(res, 200, envelope(RESULT.invalidDevice));
    if (scenario.kind === 'rejected')
      return reply(res, 200, {
        ...envelope(scenario.code),
        resultMsg: scenario.message ?? MESSAGES[scenario.code] ?? 'Rejected',
      });

    if (name === 'selectInitOsdcInfo') {
      const { tin, bhfId, dvcSrlNo } = body;
      if (typeof tin !== 'string' || !PIN.test(tin))
        return reply(res, 200, envelope(RESULT.parameterError, null, 'tin is not a KRA PIN'));
      if (typeof bhfId !== 'string' || !/^\d{2}$/.test(bhfId))
        return reply(res, 200, envelope(RESULT.parameterError, null, 'bhfId must be two digits'));
      if (!isText(dvcSrlNo, 100))
        return reply(res, 200, envelope(RESULT.parameterError, null, 'dvcSrlNo is required'));
      const allowed =
        !options.devices ||
        options.devices.some((d) => d.tin === tin && d.bhfId === bhfId && d.dvcSrlNo === dvcSrlNo);
      if (!allowed) return reply(res, 200, envelope(RESULT.invalidDevice));
      const branch = branchOf(tin, bhfId);
      if (branch.devices.has(dvcSrlNo as string))
        return reply(res, 200, envelope(RESULT.deviceInstalled));
      const device = install(branch, dvcSrlNo as string);
      return reply(
        res,
        200,
        envelope(RESULT.success, {
          info: {
            tin,
            taxprNm: 'SEEDLING PROPAGATION CENTRE (SIMULATED)',
            bsnsActv: 'Nursery',
            bhfId,
            bhfNm: bhfId === '00' ? 'Headquarter' : `Branch ${bhfId}`,
            bhfOpenDt: '20240101',
            prvncNm: 'NAIROBI CITY',
            dstrtNm: 'WESTLANDS',
            sctrNm: 'WON',
            locDesc: null,
            hqYn: bhfId === '00' ? 'Y' : 'N',
            mgrNm: 'Simulated manager',
            mgrTelNo: '0700000000',
            mgrEmail: 'manager@example.invalid',
            dvcId: device.dvcId,
            sdcId: device.sdcId,
            mrcNo: device.mrcNo,
            cmcKey: device.cmcKey,
          },
        }),
      );
    }

    const tin = req.headers.tin;
    const bhfId = req.headers.bhfid;
    const cmcKey = req.headers.cmckey;
    if (typeof tin !== 'string' || typeof bhfId !== 'string' || typeof cmcKey !== 'string')
      return reply(res, 200, envelope(RESULT.noHeader, null, 'tin, bhfId and cmcKey are required'));
    const branch = state.branches.get(branchKey(tin, bhfId));
    let device = branch && [...branch.devices.values()].find((d) => d.cmcKey === cmcKey);
    if (
      !device &&
      options.cmcKey &&
      cmcKey === options.cmcKey &&
      PIN.test(tin) &&
      /^\d{2}$/.test(bhfId)
    )
      device = install(branchOf(tin, bhfId), `restored-${devicesMade + 1}`);
    if (!device) return reply(res, 200, envelope(RESULT.invalidDevice));
    const answer = business(name, body, branchOf(tin, bhfId), device, scenario);
    return reply(res, answer.status, answer.body);
  };

  const reply = (res: ServerResponse, status: number, body: unknown): string | null => {
    send(res, status, body);
    return (body as { resultCd?: string }).resultCd ?? null;
  };

  const invoices = (filter: { tin?: string; bhfId?: string } = {}) =>
    [...state.branches.values()]
      .filter(
        (b) => (!filter.tin || b.tin === filter.tin) && (!filter.bhfId || b.bhfId === filter.bhfId),
      )
      .flatMap((b) => [...b.invoices.values()].sort((x, y) => x.invcNo - y.invcNo));
  const gaps = () =>
    Object.fromEntries(
      [...state.branches.entries()].map(([key, b]) => {
        const numbers = new Set(b.invoices.keys());
        const top = Math.max(0, ...numbers);
        return [key, Array.from({ length: top }, (_, i) => i + 1).filter((n) => !numbers.has(n))];
      }),
    );

  const OSCU_ROUTES = new Set([
    'selectInitOsdcInfo',
    'selectCodeList',
    'selectItemClsList',
    'saveItem',
    'saveTrnsSalesOsdc',
    'insertStockIO',
    'saveStockMaster',
  ]);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const route = `${req.method} ${url.pathname}`;
    const oscuName = /^POST \/etims-api\/(\w+)$/.exec(route)?.[1];
    const isToken = route === 'GET /v1/token/generate';

    if ((oscuName && OSCU_ROUTES.has(oscuName)) || isToken) {
      const name = oscuName ?? 'token';
      // Offline takes the token down too (the same KRA gateway), without counting it as a call.
      const now = current();
      if (now.kind === 'offline' && (isToken || scenarioFor(name).kind === 'offline')) {
        state.calls.push({ route: name, resultCd: null, at: new Date().toISOString() });
        if (now.mode === 'drop') {
          req.socket.destroy();
          return;
        }
        res.writeHead(503, { 'Content-Type': 'text/html' });
        res.end('<html><body><h1>503 Service Unavailable</h1></body></html>');
        return;
      }
      if (isToken) {
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const [key, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [];
        const wrong =
          !basic ||
          (options.consumerKey !== undefined &&
            (key !== options.consumerKey || secret !== options.consumerSecret));
        if (url.searchParams.get('grant_type') !== 'client_credentials' || wrong)
          return send(res, 400, {
            errorCode: '401.002.01',
            errorMessage: 'Error occurred while retrieving access token. Invalid credentials',
          });
        const token = randomBytes(16).toString('base64url');
        tokens.set(token, Date.now() + 3599_000);
        state.tokensIssued += 1;
        return send(res, 200, { access_token: token, expires_in: '3599' });
      }
      const resultCd = await oscu(name, req, res);
      state.calls.push({ route: name, resultCd, at: new Date().toISOString() });
      return;
    }

    if (route === 'GET /common/link/etims/receipt/indexEtimsReceiptData') {
      const data = url.searchParams.get('Data') ?? '';
      const found = invoices().find((i) => `${i.tin}${i.bhfId}${i.signature.rcptSign}` === data);
      if (!found) return send(res, 404, { found: false, message: 'No receipt with these data' });
      return send(res, 200, {
        found: true,
        tin: found.tin,
        bhfId: found.bhfId,
        invcNo: found.invcNo,
        trdInvcNo: found.trdInvcNo,
        rcptTyCd: found.rcptTyCd,
        totAmt: found.totAmt,
        signature: found.signature,
      });
    }

    if (route === 'POST /__simulator/scenarios') {
      try {
        const body = JSON.parse((await readBody(req)) || '{}') as {
          scenario?: ScenarioName | Scenario;
          times?: number;
          forMs?: number;
        };
        setScenario(body.scenario ?? 'accepted', { times: body.times, forMs: body.forMs });
        return send(res, 200, { ok: true, scenario: active.scenario });
      } catch (error) {
        return send(res, 400, { ok: false, message: (error as Error).message });
      }
    }
    if (route === 'GET /__simulator/scenarios') return send(res, 200, active);
    if (route === 'GET /__simulator/invoices')
      return send(res, 200, {
        invoices: invoices({
          tin: url.searchParams.get('tin') ?? undefined,
          bhfId: url.searchParams.get('bhfId') ?? undefined,
        }),
        gaps: gaps(),
      });
    if (route === 'GET /__simulator/items')
      return send(res, 200, {
        items: [...state.branches.values()].flatMap((b) =>
          [...b.items.values()].map((item) => ({ tin: b.tin, bhfId: b.bhfId, ...item })),
        ),
      });
    if (route === 'GET /__simulator/stock')
      return send(res, 200, {
        movements: [...state.branches.values()].flatMap((b) =>
          [...b.stockMovements.values()].map((m) => ({ tin: b.tin, bhfId: b.bhfId, ...m })),
        ),
        master: [...state.branches.values()].flatMap((b) =>
          [...b.stockMaster.entries()].map(([itemCd, rsdQty]) => ({
            tin: b.tin,
            bhfId: b.bhfId,
            itemCd,
            rsdQty,
          })),
        ),
      });
    if (route === 'POST /__simulator/reset') {
      reset();
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { message: 'Resource not found' });
  };

  const reset = () => {
    state.branches.clear();
    state.calls.length = 0;
    state.tokensIssued = 0;
    tokens.clear();
    setScenario('accepted');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`error: ${error.message}`);
      send(res, 500, envelope(RESULT.unknownError));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url,
    port,
    apiUrl: `${url}/etims-api`,
    tokenUrl: `${url}/v1/token/generate`,
    portalUrl: url,
    state,
    setScenario,
    invoices,
    gaps,
    forgetTokens: () => tokens.clear(),
    reset,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (require.main === module) {
  const port = Number(process.env.ETIMS_SIMULATOR_PORT ?? 4030);
  startEtimsSimulator({
    port,
    cmcKey: process.env.ETIMS_SIMULATOR_CMC_KEY ?? 'local-cmc-key-not-secret',
    answerShape:
      process.env.ETIMS_SIMULATOR_ANSWER_SHAPE === 'collection' ? 'collection' : 'specification',
    log: (m) => console.log(`[etims] ${m}`),
  })
    .then((sim) => console.log(`[etims] OSCU simulator at ${sim.apiUrl}`))
    .catch((error: Error) => {
      console.error(`[etims] ${error.message}`);
      process.exit(1);
    });
}
