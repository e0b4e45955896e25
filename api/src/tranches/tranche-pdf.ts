import {
  formatDate,
  formatDateTime,
  SHOP_IDENTITY,
  TRANCHE_NOTE_TEXTS as T,
  trancheLabel,
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
import type { OrderLineCopy, OrderTranchesRecord, TrancheRecord } from './tranche-record';

export interface TrancheNoteInput {
  doc: Pick<OrderTranchesRecord, 'purchaseNumber' | 'lpoNumber' | 'lines'>;
  tranche: TrancheRecord;
  organisation: string;
  /** The batches' ready days, by id (what the "From" column says). */
  readyOn: Map<string, string>;
  shop: { phone: string; website: string };
}

const COLUMNS: PdfColumn[] = [
  { label: 'Item', width: 165, align: 'left' },
  { label: 'From', width: 95, align: 'left' },
  { label: 'Sent', width: 60, align: 'right' },
  { label: 'Seedlings', width: 70, align: 'right' },
  { label: 'Received', width: 105, align: 'right' },
];

const row = (doc: Doc, cells: string[]) => tableRow(doc, COLUMNS, cells, 6);

const fromOf = (line: OrderLineCopy, readyOn: Map<string, string>) =>
  line.batchId
    ? `Batch${readyOn.get(line.batchId) ? `, ready ${formatDate(`${readyOn.get(line.batchId)}T12:00:00Z`)}` : ''}`
    : 'Ready stock';

/** A labelled box to fill in by hand. */
function box(doc: Doc, x: number, y: number, width: number, label: string): void {
  doc.lineWidth(0.8).strokeColor(INK).rect(x, y, width, 48).stroke();
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8)
    .text(label, x + 5, y + 4, { width: width - 10 });
}

/**
 * A tranche's delivery note (A4), printed for the driver and signed at the site: the shop, the
 * order's number and LPO, the organisation, the site with its contact and the day, each line sent
 * (units and seedlings) with a column to write what arrived, and the "Received by / Signature /
 * Date" boxes. Once recorded, it also says who signed, when, and what arrived.
 */
export function trancheNotePdf(input: TrancheNoteInput): Promise<Buffer> {
  const { doc: order, tranche: t, shop } = input;
  const label = trancheLabel(t.number);
  const sent = t.state === 'Dispatched' || t.state === 'Delivered';
  return renderPdf(`${T.title} ${order.purchaseNumber} ${label}`, (doc) => {
    doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(18).text(SHOP_IDENTITY.name);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(`${SHOP_IDENTITY.place} · Phone ${shop.phone} · ${shop.website}`);
    doc.moveDown(1.2);
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text(`${T.title} · tranche ${label}`);
    doc.font('Helvetica').fontSize(10).moveDown(0.3);
    doc.text(`Purchase number: ${order.purchaseNumber}`);
    doc.text(`LPO number: ${order.lpoNumber}`);
    doc.text(`Organisation: ${input.organisation}`);
    doc.text(`Delivery date: ${formatDate(`${t.date}T12:00:00Z`)}`);
    if (t.dispatchedAt) doc.text(`Left the nursery: ${formatDateTime(t.dispatchedAt)}`);
    doc.moveDown(0.8);
    doc.font('Helvetica-Bold').text('Deliver to');
    doc.font('Helvetica').text(t.site.name);
    doc.text([t.site.subCounty, `${t.site.county} County`].filter(Boolean).join(', '));
    doc.text(`Site contact: ${t.site.contact.name} · ${t.site.contact.phone}`);
    doc.moveDown(0.8);

    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK);
    row(
      doc,
      COLUMNS.map((c) => c.label),
    );
    rule(doc);
    doc.font('Helvetica');
    let seedlings = 0;
    for (const l of t.lines) {
      const line = order.lines[l.line]!;
      const units = sent ? (l.dispatched ?? l.quantity) : l.quantity;
      seedlings += units * line.seedlings;
      if (doc.y + 40 > doc.page.height - MARGIN) doc.addPage();
      row(doc, [
        `${line.productName} (${line.unitName})`,
        fromOf(line, input.readyOn),
        units.toLocaleString('en-US'),
        (units * line.seedlings).toLocaleString('en-US'),
        l.delivered === null ? '' : l.delivered.toLocaleString('en-US'),
      ]);
      if (l.shortReason)
        doc
          .fillColor(MUTED)
          .fontSize(9)
          .text(`Short: ${l.shortReason}`)
          .fillColor(INK)
          .fontSize(10);
    }
    rule(doc);
    doc.font('Helvetica-Bold').text(`Seedlings in all: ${seedlings.toLocaleString('en-US')}`);
    doc.font('Helvetica').moveDown(1);
    doc.fillColor(MUTED).fontSize(9).text(T.instructions).fillColor(INK).fontSize(10);

    if (t.state === 'Delivered' && t.signedBy) {
      doc.moveDown(0.8);
      doc
        .font('Helvetica-Bold')
        .text(
          `Signed for by ${t.signedBy}${t.signedAt ? ` on ${formatDateTime(t.signedAt)}` : ''}`,
        );
      doc.font('Helvetica');
    }

    doc.moveDown(2);
    if (doc.y + 70 > doc.page.height - MARGIN) doc.addPage();
    const width = doc.page.width - MARGIN * 2;
    const y = doc.y;
    const gap = 10;
    const usable = width - 2 * gap;
    const [name, signature] = [usable * 0.4, usable * 0.35];
    box(doc, MARGIN, y, name, T.receivedBy);
    box(doc, MARGIN + name + gap, y, signature, T.signature);
    box(doc, MARGIN + name + signature + 2 * gap, y, usable - name - signature, T.date);
    doc.x = MARGIN;
    doc.y = y + 60;
    doc.fillColor(INK);
  });
}
