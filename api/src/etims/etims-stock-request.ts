import type { EtimsDocument } from './etims-documents.repository';
import { registrarOf } from './etims-request';
import type { OscuSalesItem, OscuStockIoRequest, OscuStockIoType } from './oscu.types';

/** KRA's stock movement types the shop sends: a sale out, a return in. */
export const STOCK_SALE_OUT: OscuStockIoType = '11';
export const STOCK_RETURN_IN: OscuStockIoType = '03';

const cents = (kes: number) => Math.round(kes * 100);

/** An item code's type is its third character (`KE2NTU…`): `3` is a service (the delivery). */
export const isGoods = (line: Pick<OscuSalesItem, 'itemCd'>) => line.itemCd.charAt(2) !== '3';

/**
 * Whether a signed document moved seedlings out: a sale, a booking's balance (the hand-over) or an
 * invoice on account does; a booking's deposit does not (an advance: nothing leaves the beds), nor
 * a credit note (its return, when whole, is a movement of its own).
 */
export function movesGoodsOut(doc: Pick<EtimsDocument, '_id' | 'kind' | 'request'>): boolean {
  return (
    doc.kind === 'sale' && !doc._id.includes(':deposit:') && doc.request.itemList.some(isGoods)
  );
}

/**
 * The `insertStockIO` request of a signed document's goods (its services left out): the lines'
 * quantities and sums as signed, numbered again from 1. `sarNo` is the signed document's own
 * invoice number (one movement per document, so it is unique in the branch and the same on every
 * resend, which KRA answers as a duplicate); `orgSarNo` the original's on a return.
 */
export function stockMovement(
  doc: Pick<EtimsDocument, 'invcNo' | 'request'>,
  type: OscuStockIoType,
  orgSarNo = 0,
): OscuStockIoRequest {
  const items = doc.request.itemList.filter(isGoods).map((line, index) => ({
    itemSeq: index + 1,
    itemCd: line.itemCd,
    itemClsCd: line.itemClsCd,
    itemNm: line.itemNm,
    bcd: null,
    pkgUnitCd: line.pkgUnitCd,
    pkg: line.pkg,
    qtyUnitCd: line.qtyUnitCd,
    qty: line.qty,
    itemExprDt: null,
    prc: line.prc,
    splyAmt: line.splyAmt,
    totDcAmt: line.dcAmt,
    taxblAmt: line.taxblAmt,
    taxTyCd: line.taxTyCd,
    taxAmt: line.taxAmt,
    totAmt: line.totAmt,
  }));
  const sum = (pick: (line: (typeof items)[number]) => number) =>
    items.reduce((n, line) => n + cents(pick(line)), 0) / 100;
  return {
    sarNo: doc.invcNo,
    orgSarNo,
    regTyCd: 'A',
    custTin: null,
    custNm: null,
    custBhfId: null,
    sarTyCd: type,
    ocrnDt: doc.request.salesDt,
    totItemCnt: items.length,
    totTaxblAmt: sum((l) => l.taxblAmt),
    totTaxAmt: sum((l) => l.taxAmt),
    totAmt: sum((l) => l.totAmt),
    remark: null,
    itemList: items,
    ...registrarOf(null),
  };
}
