import {
  GREEN,
  INK,
  MARGIN,
  MUTED,
  renderPdf as render,
  rule,
  tableRow,
  type Doc,
  type PdfColumn,
  totalLine,
} from '../common/pdf-document';
import { formatDate, formatMoney, SHOP_IDENTITY } from '@spc/shared-contracts';
import { lineTotal, subtotalOf, totalOf, type VersionRecord } from './quotation-record';

export interface QuotationPdfInput {
  number: string;
  version: VersionRecord;
  organisation: { name: string; kraPin: string };
  shop: { phone: string; email: string; website: string; kraPin: string | null };
}

const COLUMNS: PdfColumn[] = [
  { label: 'Item', width: 175, align: 'left' },
  { label: 'From', width: 85, align: 'left' },
  { label: 'Qty', width: 55, align: 'right' },
  { label: 'Seedlings', width: 60, align: 'right' },
  { label: 'Unit price', width: 60, align: 'right' },
  { label: 'Total', width: 60, align: 'right' },
];

const row = (doc: Doc, cells: string[]) => tableRow(doc, COLUMNS, cells, 4);

/**
 * A version of a quotation as the PDF the organisation files: the shop and the organisation with
 * their KRA PINs, the lines (ready stock or a batch and its ready date), the totals and the last day
 * it may be accepted.
 */
export function quotationPdf(input: QuotationPdfInput): Promise<Buffer> {
  const { number, version: v, organisation, shop } = input;
  const title = `Quotation ${number}`;
  return render(title, (doc) => {
    doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(18).text(SHOP_IDENTITY.name);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(`${SHOP_IDENTITY.place} · Phone ${shop.phone} · ${shop.email} · ${shop.website}`);
    if (shop.kraPin) doc.text(`KRA PIN ${shop.kraPin}`);
    doc.moveDown(1.2);
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text(title);
    doc.font('Helvetica').fontSize(10).moveDown(0.3);
    doc.text(`Version ${v.version}${v.sentAt ? `, sent ${formatDate(v.sentAt)}` : ''}`);
    doc.font('Helvetica-Bold').text(`Valid until ${formatDate(v.validUntil)}`);
    doc.font('Helvetica').moveDown(0.8);
    doc.font('Helvetica-Bold').text('For');
    doc.font('Helvetica').text(organisation.name);
    doc.text(`KRA PIN ${organisation.kraPin}`);
    if (v.delivery) {
      const d = v.delivery;
      doc.moveDown(0.5).font('Helvetica-Bold').text('Delivery');
      doc
        .font('Helvetica')
        .text(
          `${d.siteName}, ${d.streetAddress}, ${d.subCounty ? `${d.subCounty}, ` : ''}${d.county}; on ${formatDate(d.date)}`,
        );
    }
    doc.moveDown(0.8);
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK);
    row(
      doc,
      COLUMNS.map((c) => c.label),
    );
    rule(doc);
    doc.font('Helvetica');
    for (const l of v.lines) {
      if (doc.y + 40 > doc.page.height - MARGIN) doc.addPage();
      row(doc, [
        `${l.productName} (${l.unitName})`,
        l.batchId ? `Batch, ready ${l.readyDate ? formatDate(l.readyDate) : ''}` : 'Ready stock',
        l.quantity.toLocaleString('en-US'),
        (l.quantity * l.seedlings).toLocaleString('en-US'),
        formatMoney(l.unitPrice),
        formatMoney(lineTotal(l)),
      ]);
    }
    rule(doc);
    totalLine(doc, 'Subtotal', formatMoney(subtotalOf(v)));
    totalLine(doc, 'Delivery', formatMoney(v.deliveryFee));
    totalLine(doc, 'Total', formatMoney(totalOf(v)), true);
    doc.moveDown(1.2).font('Helvetica').fontSize(10).fillColor(INK);
    if (v.note) doc.text(v.note, { width: doc.page.width - MARGIN * 2 }).moveDown(0.6);
    doc
      .fillColor(MUTED)
      .text(
        `This quotation holds no stock. An approver of the organisation accepts it with an LPO number by ${formatDate(v.validUntil)}; stock and batches are checked then.`,
        { width: doc.page.width - MARGIN * 2 },
      );
  });
}
