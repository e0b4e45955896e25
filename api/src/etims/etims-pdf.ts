import { create as createQr } from 'qrcode';
import {
  ETIMS_KIND_LABELS,
  ETIMS_TEXTS as T,
  formatDateTime,
  formatKes,
} from '@spc/shared-contracts';
import {
  INK,
  MARGIN,
  MUTED,
  rule,
  tableRow,
  type Doc,
  type PdfColumn,
} from '../common/pdf-document';
import type { EtimsDocumentView } from './etims-views';

/**
 * What a printed document says of eTIMS: the documents KRA signed for it (or is to sign), and
 * whether one is expected though none was queued yet (money received with eTIMS on): then it
 * prints "eTIMS pending" all the same. Null with eTIMS off: nothing is printed.
 */
export interface EtimsPrint {
  documents: EtimsDocumentView[];
  expected: boolean;
}

/** The side of a printed QR code, in points (about 3.2 cm: a phone reads it off paper). */
const QR_SIZE = 92;
/** The white border a reader needs around the code, in modules (the standard's four). */
const QUIET = 4;

/** The QR code of `text` (error correction M: a crease or a stamp does not lose it). */
export function qrMatrix(text: string): {
  size: number;
  dark: (row: number, col: number) => boolean;
} {
  const { modules } = createQr(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => !!modules.get(row, col) };
}

/**
 * Draws the QR code of `text` as vector squares (sharp at any zoom or printer, no image), `side`
 * points wide at (x, y) with its quiet zone inside, and makes it a link to `text` as well.
 */
export function drawQr(doc: Doc, text: string, x: number, y: number, side = QR_SIZE): void {
  const qr = qrMatrix(text);
  const cell = side / (qr.size + 2 * QUIET);
  doc.save();
  for (let row = 0; row < qr.size; row++)
    for (let col = 0; col < qr.size; col++)
      if (qr.dark(row, col))
        doc.rect(x + (col + QUIET) * cell, y + (row + QUIET) * cell, cell, cell);
  doc.fillColor('#000000').fill();
  doc.restore();
  doc.link(x, y, side, side, text);
}

/** The lines' tax per type: the amount, the taxable part and the tax (KES, to the cent). */
function taxTable(doc: Doc, d: EtimsDocumentView): void {
  const width = doc.page.width - MARGIN * 2;
  const columns: PdfColumn[] = [
    { label: T.taxType, width: width - 330, align: 'left' },
    { label: T.taxAmount, width: 120, align: 'right' },
    { label: T.taxable, width: 105, align: 'right' },
    { label: T.tax, width: 105, align: 'right' },
  ];
  doc.font('Helvetica-Bold').fontSize(9).fillColor(INK).text(T.taxHeading);
  tableRow(
    doc,
    columns,
    columns.map((c) => c.label),
    2,
  );
  doc.font('Helvetica');
  for (const t of d.taxes)
    tableRow(
      doc,
      columns,
      [`${t.taxType} · ${t.label}`, formatKes(t.amount), formatKes(t.taxable), formatKes(t.tax)],
      2,
    );
  if (d.taxes.length > 1) {
    doc.font('Helvetica-Bold');
    tableRow(
      doc,
      columns,
      ['Total', formatKes(d.total.amount), formatKes(d.total.taxable), formatKes(d.total.tax)],
      2,
    );
  }
  doc.font('Helvetica').fontSize(10);
}

/** "eTIMS pending" and why, in place of a signed document's number and QR code. */
function pending(doc: Doc): void {
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#c62828').text(T.pending, MARGIN);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(T.pendingWhy, MARGIN, doc.y, { width: doc.page.width - MARGIN * 2 });
  doc.fillColor(INK).fontSize(10);
}

/**
 * The eTIMS part of a receipt, an invoice or a delivery note: for each document KRA signed, its
 * control unit invoice number, signature, internal data, time, the buyer it names (their name and
 * KRA PIN, when they gave one) and QR code of KRA's check link;
 * for one not yet signed, "eTIMS pending"; and each one's tax breakdown by type. Nothing with
 * eTIMS off.
 */
export function drawEtims(doc: Doc, print: EtimsPrint | null): void {
  if (!print || (!print.documents.length && !print.expected)) return;
  const width = doc.page.width - MARGIN * 2;
  doc.x = MARGIN;
  doc.moveDown(1);
  if (doc.y + 60 > doc.page.height - MARGIN) doc.addPage();
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(T.heading, MARGIN);
  rule(doc);
  if (!print.documents.length) {
    pending(doc);
    return;
  }
  for (const d of print.documents) {
    const buyerLines = d.buyer ? 24 : 0;
    if (doc.y + QR_SIZE + 40 + buyerLines + 14 * d.taxes.length > doc.page.height - MARGIN)
      doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(INK)
      .text(`${ETIMS_KIND_LABELS[d.kind]} ${d.trdInvcNo}`, MARGIN);
    doc.moveDown(0.2);
    if (d.state === 'signed' && d.qrUrl) {
      const top = doc.y;
      drawQr(doc, d.qrUrl, MARGIN, top);
      const x = MARGIN + QR_SIZE + 12;
      const textWidth = width - QR_SIZE - 12;
      doc.font('Helvetica').fontSize(9).fillColor(INK);
      const line = (label: string, value: string | null) => {
        if (value) doc.text(`${label}: ${value}`, x, doc.y, { width: textWidth });
      };
      doc.y = top + 4;
      line(T.cuInvoiceNo, d.cuInvoiceNo);
      line(T.signature, d.signature);
      line(T.internalData, d.internalData);
      line(T.signedAt, d.signedAt ? formatDateTime(d.signedAt) : null);
      line(T.mrcNo, d.mrcNo);
      line(T.buyer, d.buyer?.name ?? null);
      line(T.buyerPin, d.buyer?.pin ?? null);
      doc
        .fillColor(MUTED)
        .fontSize(8)
        .text(`${T.check}: ${d.qrUrl}`, x, doc.y, { width: textWidth, link: d.qrUrl });
      doc.x = MARGIN;
      doc.y = Math.max(doc.y, top + QR_SIZE) + 4;
      doc.fillColor(INK).fontSize(10);
    } else {
      pending(doc);
    }
    doc.moveDown(0.3);
    taxTable(doc, d);
    doc.moveDown(0.6);
  }
  doc.x = MARGIN;
}
