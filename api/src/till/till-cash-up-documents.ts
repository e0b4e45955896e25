import { Injectable } from '@nestjs/common';
import { formatMoney, SHOP_IDENTITY, toCsv, type TillCashUpView } from '@spc/shared-contracts';
import {
  MARGIN,
  MUTED,
  INK,
  renderPdf,
  rule,
  tableRow,
  type Doc,
  type PdfColumn,
} from '../common/pdf-document';
import { shopDateTime } from '../common/shop-clock';

const kes = (n: number | null) => (n === null ? '' : formatMoney(n));
const METHOD = { cash: 'Cash', mpesa: 'M-Pesa' } as const;

/** A session's cash-up as rows: the screen's sections, one after the other. */
function rows(c: TillCashUpView): string[][] {
  const s = c.session;
  const when = (at: string | null) => (at ? shopDateTime(at) : '');
  return [
    ['Till session', s.staffName, when(s.openedAt), when(s.closedAt)],
    ['Float', String(s.float)],
    [],
    ['Method', 'Expected', 'Counted', 'Difference'],
    ...c.methods.map((m) => [
      METHOD[m.method],
      String(m.expected),
      m.counted === null ? '' : String(m.counted),
      m.difference === null ? '' : String(m.difference),
    ]),
    [],
    ['Seller', 'Sales', 'Total'],
    ...c.sellers.map((p) => [p.staffName, String(p.sales), String(p.total)]),
    [],
    ['Voided sale', 'Amount', 'By', 'Approved by', 'At', 'Reason'],
    ...c.voids.map((v) => [
      v.purchaseNumber,
      String(v.amount),
      v.byName,
      v.approvedByName,
      when(v.at),
      v.reason,
    ]),
    [],
    ['Refunded sale', 'Amount', 'By', 'Approved by', 'At', 'Reason'],
    ...c.refunds.map((v) => [
      v.purchaseNumber,
      String(v.amount),
      v.byName,
      v.approvedByName,
      when(v.at),
      v.reason,
    ]),
  ];
}

const fileBase = (c: TillCashUpView) =>
  `till-cash-up-${c.session.openedAt.slice(0, 10)}-${c.session._id.slice(-6)}`;

/** A till session's cash-up as CSV and PDF: the screen's figures, in the same words. */
@Injectable()
export class TillCashUpDocuments {
  /** CSV; a cell a spreadsheet would run as a formula is written as text (`toCsv`). */
  csv(c: TillCashUpView): { csv: string; fileName: string } {
    return { csv: toCsv(rows(c)), fileName: `${fileBase(c)}.csv` };
  }

  async pdf(c: TillCashUpView): Promise<{ pdf: Buffer; fileName: string }> {
    const pdf = await renderPdf(`Till cash-up ${c.session.staffName}`, (doc) => draw(doc, c));
    return { pdf, fileName: `${fileBase(c)}.pdf` };
  }
}

function draw(doc: Doc, c: TillCashUpView): void {
  const s = c.session;
  const width = doc.page.width - MARGIN * 2;
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .fillColor(INK)
    .text(`${SHOP_IDENTITY.name}: till cash-up`);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  doc.text(
    `${s.staffName}, opened ${shopDateTime(s.openedAt)}${s.closedAt ? `, closed ${shopDateTime(s.closedAt)}` : ' (open)'}`,
  );
  doc.text(`Float ${formatMoney(s.float)}; ${s.sales} sales, ${formatMoney(s.total)}`);
  doc.fillColor(INK).moveDown(0.8);
  const section = (title: string, columns: PdfColumn[], cells: string[][]) => {
    doc.font('Helvetica-Bold').fontSize(11).text(title);
    rule(doc);
    doc.font('Helvetica-Bold').fontSize(9);
    tableRow(
      doc,
      columns,
      columns.map((col) => col.label),
      4,
    );
    doc.font('Helvetica').fontSize(9);
    for (const row of cells.length ? cells : [['None']]) tableRow(doc, columns, row, 3);
    doc.moveDown(0.8);
  };
  const quarter = width / 4;
  section(
    'Expected against counted',
    ['Method', 'Expected', 'Counted', 'Difference'].map((label, i) => ({
      label,
      width: quarter,
      align: i ? 'right' : 'left',
    })),
    c.methods.map((m) => [METHOD[m.method], kes(m.expected), kes(m.counted), kes(m.difference)]),
  );
  const third = width / 3;
  section(
    'Sellers',
    ['Seller', 'Sales', 'Total'].map((label, i) => ({
      label,
      width: third,
      align: i ? 'right' : 'left',
    })),
    c.sellers.map((p) => [p.staffName, String(p.sales), kes(p.total)]),
  );
  const cols: PdfColumn[] = [
    { label: 'Sale', width: 90, align: 'left' },
    { label: 'Amount', width: 70, align: 'right' },
    { label: 'By', width: 90, align: 'left' },
    { label: 'Approved by', width: 90, align: 'left' },
    { label: 'Reason', width: width - 340, align: 'left' },
  ];
  const line = (v: TillCashUpView['voids'][number]) => [
    v.purchaseNumber,
    kes(v.amount),
    v.byName,
    v.approvedByName,
    v.reason,
  ];
  section('Voids', cols, c.voids.map(line));
  section('Refunds', cols, c.refunds.map(line));
}
