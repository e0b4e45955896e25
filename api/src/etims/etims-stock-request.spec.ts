import type { EtimsDocument } from './etims-documents.repository';
import { buildSalesRequest, type EtimsDocumentInput } from './etims-request';
import { movesGoodsOut, STOCK_RETURN_IN, stockMovement } from './etims-stock-request';

const line = (itemCd: string, itemNm: string, qty: number, unitPrice: number) => ({
  itemCd,
  itemClsCd: '1015150000',
  itemNm,
  pkgUnitCd: 'NT',
  qtyUnitCd: 'U',
  qty,
  unitPrice,
  taxTyCd: 'B' as const,
});
const input: EtimsDocumentInput = {
  source: 'order:abc:sale',
  kind: 'sale',
  trdInvcNo: 'SPC-2026-0001',
  paymentType: '06',
  at: new Date('2026-03-02T07:30:00Z'),
  lines: [
    line('KE2NTU0000001', 'Tomato seedlings, tray of 50', 2, 450),
    line('KE3NTU0000002', 'Delivery', 1, 300),
    line('KE2NTU0000003', 'Hass avocado', 1, 250),
  ],
};
const sale = {
  _id: input.source,
  kind: 'sale',
  invcNo: 41,
  request: buildSalesRequest(input, 41, 0, input.at),
} as Pick<EtimsDocument, '_id' | 'kind' | 'invcNo' | 'request'>;

describe('stock movements of signed documents', () => {
  it('moves the goods of a sale, a balance or an invoice, never a deposit or a credit note', () => {
    expect(movesGoodsOut(sale)).toBe(true);
    expect(movesGoodsOut({ ...sale, _id: 'order:abc:balance' })).toBe(true);
    expect(movesGoodsOut({ ...sale, _id: 'invoice:abc' })).toBe(true);
    expect(movesGoodsOut({ ...sale, _id: 'order:abc:deposit:e1' })).toBe(false);
    expect(movesGoodsOut({ ...sale, kind: 'credit-note' })).toBe(false);
    const deliveryOnly = { ...sale.request, itemList: [sale.request.itemList[1]!] };
    expect(movesGoodsOut({ ...sale, request: deliveryOnly })).toBe(false);
  });

  it('lists the goods numbered from 1, the services left out, under the document’s own number', () => {
    const move = stockMovement(sale, STOCK_RETURN_IN, 7);
    expect(move).toMatchObject({
      sarNo: 41,
      orgSarNo: 7,
      regTyCd: 'A',
      sarTyCd: '03',
      ocrnDt: '20260302',
      totItemCnt: 2,
      totAmt: 1150,
      regrNm: 'system',
    });
    expect(move.itemList.map((i) => [i.itemSeq, i.itemCd, i.qty])).toEqual([
      [1, 'KE2NTU0000001', 2],
      [2, 'KE2NTU0000003', 1],
    ]);
    expect(move.totTaxAmt).toBeCloseTo(
      move.itemList.reduce((n, i) => n + i.taxAmt, 0),
      2,
    );
  });
});
