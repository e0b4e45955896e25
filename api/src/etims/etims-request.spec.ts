import {
  buildSalesRequest,
  inputProblem,
  registrarOf,
  type EtimsDocumentInput,
} from './etims-request';

const at = new Date('2026-03-02T07:30:00Z');
const input: EtimsDocumentInput = {
  source: 'order:abc:sale',
  kind: 'sale',
  trdInvcNo: 'SPC-2026-0001',
  paymentType: '06',
  at,
  buyer: { tin: 'P051234567X', name: 'Wanjiru Kamau', person: true },
  lines: [
    {
      itemCd: 'KE2NTU0000001',
      itemClsCd: '1015150000',
      itemNm: 'Tomato seedlings, tray of 50',
      pkgUnitCd: 'NT',
      qtyUnitCd: 'U',
      qty: 2,
      unitPrice: 450,
      taxTyCd: 'B',
    },
    {
      itemCd: 'KE3NTU0000002',
      itemClsCd: '1015150000',
      itemNm: 'Delivery',
      pkgUnitCd: 'NT',
      qtyUnitCd: 'U',
      qty: 1,
      unitPrice: 300,
      discount: 100,
      taxTyCd: 'E',
    },
  ],
};

describe('eTIMS request of a queued document', () => {
  it('builds a sale with its number, Nairobi times, the lines and the breakdown by tax type', () => {
    const request = buildSalesRequest(input, 7, 3, new Date('2026-03-02T07:31:00Z'));
    expect(request).toMatchObject({
      invcNo: 7,
      orgInvcNo: 0,
      rcptTyCd: 'S',
      salesSttsCd: '02',
      pmtTyCd: '06',
      custTin: 'P051234567X',
      custNm: 'Wanjiru Kamau',
      cfmDt: '20260302103000',
      salesDt: '20260302',
      rfdDt: null,
      rfdRsnCd: null,
      taxblAmtB: 900,
      taxAmtB: 124.14,
      taxblAmtE: 200,
      taxAmtE: 14.81,
      taxRtE: 8,
      totItemCnt: 2,
      totAmt: 1100,
      regrId: 'system',
      receipt: { custTin: 'P051234567X', rcptPbctDt: '20260302103100', prchrAcptcYn: 'N' },
    });
    expect(request.itemList[1]).toMatchObject({ splyAmt: 300, dcAmt: 100, taxblAmt: 200 });
  });

  it('builds a credit note naming the sale it credits, refund by default', () => {
    const credit = buildSalesRequest(
      { ...input, kind: 'credit-note', original: 'order:abc:sale', buyer: null },
      9,
      7,
      at,
    );
    expect(credit).toMatchObject({
      invcNo: 9,
      orgInvcNo: 7,
      rcptTyCd: 'R',
      rfdRsnCd: '06',
      rfdDt: '20260302103000',
      custTin: null,
    });
  });

  it('refuses what cannot be queued, naming it', () => {
    expect(inputProblem(input, at)).toBeNull();
    expect(inputProblem({ ...input, lines: [] }, at)).toBe('a document has at least one line');
    expect(inputProblem({ ...input, kind: 'credit-note' }, at)).toContain('names the sale');
    expect(inputProblem({ ...input, at: new Date(at.getTime() + 3600_000) }, at)).toContain(
      'in the future',
    );
    expect(inputProblem({ ...input, lines: [{ ...input.lines[0]!, qty: 0 }] }, at)).toBe(
      'lines[0].qty must be more than 0',
    );
    expect(
      inputProblem({ ...input, lines: [{ ...input.lines[1]!, discount: 301 }] }, at),
    ).toContain('discount');
  });

  it('names the registrar within KRA’s lengths', () => {
    expect(registrarOf({ id: 'x'.repeat(30), name: 'Clerk' })).toEqual({
      regrId: 'x'.repeat(20),
      regrNm: 'Clerk',
      modrId: 'x'.repeat(20),
      modrNm: 'Clerk',
    });
  });
});
