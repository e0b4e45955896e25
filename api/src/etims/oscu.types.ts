/**
 * The request and answer shapes of KRA's eTIMS Online Sales Control Unit (OSCU) API, specification
 * v2.0, for the endpoints the shop uses (docs/etims.md lists them and the fields we fill). Field
 * names are KRA's own; dates are KRA's compact strings (`yyyyMMdd`, `yyyyMMddHHmmss`, Nairobi time).
 */

/** KRA's tax types: A exempt, B 16 %, C zero-rated, D non-VAT, E 8 %. */
export type OscuTaxType = 'A' | 'B' | 'C' | 'D' | 'E';
export const OSCU_TAX_TYPES: readonly OscuTaxType[] = ['A', 'B', 'C', 'D', 'E'];
/** The rate of each tax type, in percent, as KRA's code list gives it. */
export const OSCU_TAX_RATES: Readonly<Record<OscuTaxType, number>> = {
  A: 0,
  B: 16,
  C: 0,
  D: 0,
  E: 8,
};

/** Sale (`S`) or credit note after a sale (`R`). */
export type OscuReceiptType = 'S' | 'R';
/** 01 cash, 02 credit, 03 cash/credit, 04 bank cheque, 05 card, 06 mobile money, 07 other. */
export type OscuPaymentType = '01' | '02' | '03' | '04' | '05' | '06' | '07';
/** 01 wait for approval, 02 approved, 03 cancel requested, 04 cancelled, 05 credit note generated, 06 transferred. */
export type OscuSalesStatus = '01' | '02' | '03' | '04' | '05' | '06';
/** 01 missing quantity, 02 missing data, 03 damaged, 04 wasted, 05 raw material shortage, 06 refund. */
export type OscuCreditNoteReason = '01' | '02' | '03' | '04' | '05' | '06';
/** Incoming 01–06 (import, purchase, return, stock movement, processing, adjustment); outgoing 11–16 (sale, return, stock movement, processing, discarding, adjustment). */
export type OscuStockIoType =
  '01' | '02' | '03' | '04' | '05' | '06' | '11' | '12' | '13' | '14' | '15' | '16';
/** 1 raw material, 2 finished product, 3 service. */
export type OscuItemType = '1' | '2' | '3';
export type YesNo = 'Y' | 'N';

/** KRA's result codes (code-definition "API Response Code"). */
export const OSCU_RESULT = {
  success: '000',
  noSearchResult: '001',
  noHeader: '900',
  invalidDevice: '901',
  deviceInstalled: '902',
  oscuOnly: '903',
  parameterError: '910',
  noRequestBody: '911',
  methodError: '912',
  salesNotReceivable: '921',
  invoiceBeforeSales: '922',
  tooManyViews: '990',
  registrationError: '991',
  modificationError: '992',
  deletionError: '993',
  /** "There is an overlapped Data": the record (an invoice number, a stock number) was received before. */
  duplicate: '994',
  noDownloadedFile: '995',
  unknownError: '999',
} as const;

/** KRA's text for each result code, as the code definition gives it. */
export const OSCU_RESULT_MESSAGES: Readonly<Record<string, string>> = {
  '000': 'It is succeeded',
  '001': 'There is no search result',
  '900': 'There is no Header information',
  '901': 'It is not valid device',
  '902': 'This device is installed',
  '903': 'Only OSCU device can be verified.',
  '910': 'Request parameter error',
  '911': 'There is no request full text',
  '912': 'There is a request Method error',
  '921': 'Sales or sales invoice data which is declared cannot be received.',
  '922': 'Sales invoice data can be received after receiving the sales data.',
  '990': 'The maximum number of views are exceeded',
  '991': 'There is an error during registration',
  '992': 'There is an error during modification',
  '993': 'There is an error during deletion',
  '994': 'There is an overlapped Data',
  '995': 'There is no downloaded file',
  '999': 'There is an unknown error. Please ask the administrator',
};

/** Every OSCU answer: a result code and message, the time, and the data (null for saves). */
export interface OscuEnvelope<T> {
  resultCd: string;
  resultMsg: string;
  resultDt: string;
  data: T | null;
}

/** The headers every call but the initialisation carries. */
export interface OscuHeaders {
  tin: string;
  bhfId: string;
  cmcKey: string;
}

// --- Initialisation: POST /selectInitOsdcInfo ------------------------------------------------

export interface OscuInitRequest {
  /** The shop's KRA PIN: A or P, 9 digits, a letter. */
  tin: string;
  /** The branch, `00` for the head office. */
  bhfId: string;
  /** The device serial KRA approved with the OSCU application. */
  dvcSrlNo: string;
}

export interface OscuInitInfo {
  tin: string;
  taxprNm: string;
  bsnsActv: string | null;
  bhfId: string;
  bhfNm: string;
  bhfOpenDt: string;
  prvncNm: string | null;
  dstrtNm: string | null;
  sctrNm: string | null;
  locDesc: string | null;
  hqYn: YesNo;
  mgrNm: string | null;
  mgrTelNo: string | null;
  mgrEmail: string | null;
  dvcId: string;
  /** The control unit's id, printed on every receipt. */
  sdcId: string;
  /** The machine registration code, printed on every receipt. */
  mrcNo: string;
  /** The communication key every later call carries in its `cmcKey` header. */
  cmcKey: string;
}

export interface OscuInitData {
  info: OscuInitInfo;
}

// --- Code list and item classes: POST /selectCodeList, POST /selectItemClsList ---------------

export interface OscuLastRequestDate {
  /** Only codes added or changed after this time (`yyyyMMddHHmmss`) are answered. */
  lastReqDt: string;
}

export interface OscuCodeDetail {
  cd: string;
  cdNm: string;
  cdDesc: string | null;
  useYn: YesNo;
  srtOrd: number;
  userDfnCd1: string | null;
  userDfnCd2: string | null;
  userDfnCd3: string | null;
}

export interface OscuCodeClass {
  cdCls: string;
  cdClsNm: string;
  cdClsDesc: string | null;
  useYn: YesNo;
  userDfnNm1: string | null;
  userDfnNm2: string | null;
  userDfnNm3: string | null;
  dtlList: OscuCodeDetail[];
}

export interface OscuCodeListData {
  clsList: OscuCodeClass[];
}

export interface OscuItemClass {
  itemClsCd: string;
  itemClsNm: string;
  itemClsLvl: number;
  taxTyCd: OscuTaxType | null;
  mjrTgYn: YesNo | null;
  useYn: YesNo;
}

export interface OscuItemClassData {
  itemClsList: OscuItemClass[];
}

/** Who registered and last changed a record: KRA asks for it on every save. */
export interface OscuRegistrar {
  regrId: string;
  regrNm: string;
  modrId: string;
  modrNm: string;
}

// --- Item registration: POST /saveItem ----------------------------------------------------------

export interface OscuItemRequest extends OscuRegistrar {
  /** The shop's code for the item: country, type, packaging unit, quantity unit, a sequence (KE2NTU0000001). */
  itemCd: string;
  /** KRA's item classification (UNSPSC-based), from selectItemClsList. */
  itemClsCd: string;
  itemTyCd: OscuItemType;
  itemNm: string;
  itemStdNm?: string | null;
  orgnNatCd: string;
  pkgUnitCd: string;
  qtyUnitCd: string;
  taxTyCd: OscuTaxType;
  btchNo?: string | null;
  bcd?: string | null;
  /** The default unit price, tax included. */
  dftPrc: number;
  grpPrcL1?: number | null;
  grpPrcL2?: number | null;
  grpPrcL3?: number | null;
  grpPrcL4?: number | null;
  grpPrcL5?: number | null;
  addInfo?: string | null;
  sftyQty?: number | null;
  isrcAplcbYn: YesNo;
  useYn: YesNo;
}

// --- Sales and credit notes: POST /saveTrnsSalesOsdc ---------------------------------------------

export interface OscuSalesReceipt {
  custTin?: string | null;
  custMblNo?: string | null;
  /** When the receipt was printed (`yyyyMMddHHmmss`). */
  rcptPbctDt: string;
  trdeNm?: string | null;
  adrs?: string | null;
  topMsg?: string | null;
  btmMsg?: string | null;
  prchrAcptcYn: YesNo;
}

export interface OscuSalesItem {
  itemSeq: number;
  itemCd: string;
  itemClsCd: string;
  itemNm: string;
  bcd?: string | null;
  pkgUnitCd: string;
  pkg: number;
  qtyUnitCd: string;
  qty: number;
  /** Unit price, tax included. */
  prc: number;
  /** `prc × qty`. */
  splyAmt: number;
  dcRt: number;
  dcAmt: number;
  isrccCd?: string | null;
  isrccNm?: string | null;
  isrcRt?: number | null;
  isrcAmt?: number | null;
  taxTyCd: OscuTaxType;
  /** `splyAmt − dcAmt`, tax included. */
  taxblAmt: number;
  /** The tax inside `taxblAmt`: `taxblAmt × rate / (100 + rate)`. */
  taxAmt: number;
  totAmt: number;
}

/** The fifteen per-tax-type fields of a sale (`taxblAmtA`… `taxAmtE`). */
export type OscuTaxFields = {
  [K in `taxblAmt${OscuTaxType}` | `taxRt${OscuTaxType}` | `taxAmt${OscuTaxType}`]: number;
};

export interface OscuSalesRequest extends OscuTaxFields, OscuRegistrar {
  /** The shop's own document number (the receipt or invoice number it prints). */
  trdInvcNo: string;
  /** The branch's gap-free sequence: 1, 2, 3… Resending a number is answered as a duplicate. */
  invcNo: number;
  /** For a credit note, the `invcNo` of the sale it credits; 0 for a sale. */
  orgInvcNo: number;
  custTin?: string | null;
  custNm?: string | null;
  /** N normal (the example in KRA's collection; not in its field table). */
  salesTyCd?: 'N';
  rcptTyCd: OscuReceiptType;
  pmtTyCd?: OscuPaymentType | null;
  salesSttsCd: OscuSalesStatus;
  /** When the sale was confirmed (`yyyyMMddHHmmss`). */
  cfmDt: string;
  /** The day of the sale (`yyyyMMdd`). */
  salesDt: string;
  stockRlsDt?: string | null;
  cnclReqDt?: string | null;
  cnclDt?: string | null;
  /** For a credit note, when it was made (`yyyyMMddHHmmss`). */
  rfdDt?: string | null;
  rfdRsnCd?: OscuCreditNoteReason | null;
  totItemCnt: number;
  totTaxblAmt: number;
  totTaxAmt: number;
  totAmt: number;
  prchrAcptcYn: YesNo;
  remark?: string | null;
  receipt: OscuSalesReceipt;
  itemList: OscuSalesItem[];
}

/**
 * What OSCU answers for a signed sale. KRA's published collection names the receipt number
 * `curRcptNo` and the time `sdcDateTime`; the specification's PDF and many integrations name them
 * `rcptNo` and `vsdcRcptPbctDate` and add `sdcId` and `mrcNo`. Both are accepted.
 */
export interface OscuSalesData {
  curRcptNo?: number | string;
  rcptNo?: number | string;
  totRcptNo: number | string;
  intrlData: string;
  rcptSign: string;
  sdcDateTime?: string;
  vsdcRcptPbctDate?: string;
  sdcId?: string;
  mrcNo?: string;
}

// --- Stock: POST /insertStockIO, POST /saveStockMaster -----------------------------------------

export interface OscuStockItem {
  itemSeq: number;
  itemCd?: string | null;
  itemClsCd: string;
  itemNm: string;
  bcd?: string | null;
  pkgUnitCd: string;
  pkg: number;
  qtyUnitCd: string;
  qty: number;
  itemExprDt?: string | null;
  prc: number;
  splyAmt: number;
  totDcAmt: number;
  taxblAmt: number;
  taxTyCd: OscuTaxType;
  taxAmt: number;
  totAmt: number;
}

export interface OscuStockIoRequest extends OscuRegistrar {
  /** The branch's stock movement number; resending one is answered as a duplicate. */
  sarNo: number;
  orgSarNo: number;
  /** A automatic, M manual. */
  regTyCd: 'A' | 'M';
  custTin?: string | null;
  custNm?: string | null;
  custBhfId?: string | null;
  sarTyCd: OscuStockIoType;
  /** `yyyyMMdd`. */
  ocrnDt: string;
  totItemCnt: number;
  totTaxblAmt: number;
  totTaxAmt: number;
  totAmt: number;
  remark?: string | null;
  itemList: OscuStockItem[];
}

export interface OscuStockMasterRequest extends OscuRegistrar {
  itemCd: string;
  /** What is left of the item at the branch after the movement. */
  rsdQty: number;
}

/** The OSCU paths the shop calls, under the base URL (`…/etims-api`). */
export const OSCU_PATHS = {
  init: '/selectInitOsdcInfo',
  codeList: '/selectCodeList',
  itemClasses: '/selectItemClsList',
  saveItem: '/saveItem',
  sale: '/saveTrnsSalesOsdc',
  stockIo: '/insertStockIO',
  stockMaster: '/saveStockMaster',
} as const;
