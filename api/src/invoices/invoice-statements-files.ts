import {
  AGEING_BUCKETS,
  AGEING_LABELS,
  formatDate,
  formatMoney,
  SHOP_IDENTITY,
  toCsv,
  type CsvValue,
  type StatementView,
} from '@spc/shared-contracts';
import {
  GREEN,
  INK,
  MARGIN,
  MUTED,
  renderPdf,
  rule,
  tableRow,
  type Doc,
  type PdfColumn,
} from '../common/pdf-document';

/** `statement-<PIN>-<to>.pdf` / `.csv`: the organisation's KRA PIN and the last day. */
export function statementFilename(s: StatementView, ext: 'pdf' | 'csv'): string {
  const pin = s.organisation.kraPin.replace(/[^A-Za-z0-9]/g, '') || s.organisation.id;
  return `statement-${pin}-${s.to}.${ext}`;
}

const day = (d: string) => formatDate(`${d}T12:00:00Z`);
const money = (n: number) => (n ? n.toLocaleString('en-US') : '');

/**
 * The statement as CSV: a heading block (the parties, the period), then one row a line between
 * the opening and the closing balance, then the ageing. Cells a spreadsheet would run as a formula
 * are written as text (toCsv).
 */
export function statementCsv(s: StatementView): string {
  const rows: CsvValue[][] = [
    ['statement_of', s.organisation.name, 'kra_pin', s.organisation.kraPin],
    ['from', s.shop.name, 'kra_pin', s.shop.kraPin],
    ['period_from', s.from, 'period_to', s.to],
    [],
    ['date', 'kind', 'reference', 'invoice', 'description', 'debit', 'credit', 'balance'],
    [s.from, 'opening', '', '', 'Opening balance', '', '', s.openingBalance],
    ...s.lines.map((l) => [
      l.date,
      l.kind,
      l.reference,
      l.invoiceNumber,
      l.description,
      l.debit,
      l.credit,
      l.balance,
    ]),
    [s.to, 'closing', '', '', 'Closing balance', '', '', s.closingBalance],
    [],
    ['ageing', ...AGEING_BUCKETS.map((b) => AGEING_LABELS[b]), 'overdue', 'excess'],
    ['amount', ...AGEING_BUCKETS.map((b) => s.ageing[b]), s.overdue, s.excess],
  ];
  return toCsv(rows);
}

const COLUMNS: PdfColumn[] = [
  { label: 'Date', width: 62, align: 'left' },
  { label: 'Details', width: 203, align: 'left' },
  { label: 'Debit', width: 75, align: 'right' },
  { label: 'Credit', width: 75, align: 'right' },
  { label: 'Balance', width: 80, align: 'right' },
];
const AGEING_COLUMNS: PdfColumn[] = AGEING_BUCKETS.map((b) => ({
  label: AGEING_LABELS[b],
  width: 99,
  align: 'right' as const,
}));

const row = (doc: Doc, cells: string[]) => tableRow(doc, COLUMNS, cells, 4);

/**
 * The statement as the PDF an organisation files (A4): the shop and the organisation with their
 * KRA PINs, the period, the lines with the running balance between the opening and the closing
 * balance, and what is owed by days past due.
 */
export function statementPdf(
  s: StatementView,
  shop: { phone: string; email: string; website: string },
): Promise<Buffer> {
  const title = `Statement of account, ${s.organisation.name}`;
  return renderPdf(title, (doc) => {
    doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(18).text(SHOP_IDENTITY.name);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(`${SHOP_IDENTITY.place} · Phone ${shop.phone} · ${shop.email} · ${shop.website}`);
    if (s.shop.kraPin) doc.text(`KRA PIN ${s.shop.kraPin}`);
    doc.moveDown(1.2);
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text('Statement of account');
    doc.font('Helvetica').fontSize(10).moveDown(0.3);
    doc.text(`Organisation: ${s.organisation.name}`);
    doc.text(`KRA PIN: ${s.organisation.kraPin}`);
    doc.text(`Period: ${day(s.from)} to ${day(s.to)}`);
    doc.moveDown(0.8);

    doc.font('Helvetica-Bold');
    row(
      doc,
      COLUMNS.map((c) => c.label),
    );
    rule(doc);
    doc.font('Helvetica');
    row(doc, [day(s.from), 'Opening balance', '', '', formatMoney(s.openingBalance)]);
    for (const l of s.lines) {
      if (doc.y + 40 > doc.page.height - MARGIN) doc.addPage();
      row(doc, [
        day(l.date),
        l.description,
        money(l.debit),
        money(l.credit),
        l.balance.toLocaleString('en-US'),
      ]);
    }
    rule(doc);
    doc.font('Helvetica-Bold');
    row(doc, [day(s.to), 'Closing balance', '', '', formatMoney(s.closingBalance)]);
    doc.font('Helvetica').moveDown(1);

    if (doc.y + 90 > doc.page.height - MARGIN) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`Owed at ${day(s.to)}, by days past due`);
    doc.fontSize(10).moveDown(0.3);
    tableRow(
      doc,
      AGEING_COLUMNS,
      AGEING_COLUMNS.map((c) => c.label),
      4,
    );
    rule(doc);
    doc.font('Helvetica');
    tableRow(
      doc,
      AGEING_COLUMNS,
      AGEING_BUCKETS.map((b) => formatMoney(s.ageing[b])),
      4,
    );
    doc.moveDown(0.5);
    doc.font('Helvetica-Bold').text(`Overdue: ${formatMoney(s.overdue)}`);
    if (s.excess)
      doc.font('Helvetica').text(`Paid in excess, in your favour: ${formatMoney(s.excess)}`);
    doc.moveDown(1);
    doc
      .font('Helvetica')
      .fillColor(MUTED)
      .fontSize(9)
      .text(
        'Pay by M-Pesa paybill with the invoice number as the account, or by bank transfer quoting the invoice number.',
      )
      .fillColor(INK);
  });
}
