import PDFDocument from 'pdfkit';
import { SHOP_IDENTITY } from '@spc/shared-contracts';

/** The shop's printed documents (an order's receipt and delivery note, a quotation): A4, one look. */
export type Doc = PDFKit.PDFDocument;

export const MARGIN = 50;
export const INK = '#1f2a1f';
export const MUTED = '#5b665b';
export const GREEN = '#2f7d32';

/** Renders into a buffer: pdfkit writes a stream, the answer needs the whole file. */
export function renderPdf(title: string, draw: (doc: Doc) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      info: { Title: title, Author: SHOP_IDENTITY.name, Creator: SHOP_IDENTITY.name },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/** A thin rule across the page under what was last written. */
export function rule(doc: Doc): void {
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .lineWidth(0.5)
    .strokeColor('#b9c2b9')
    .stroke();
  doc.y = y + 6;
}

/** A column of a printed table: its heading, its width in points, and how its cells align. */
export interface PdfColumn {
  label: string;
  width: number;
  align: 'left' | 'right';
}

/** A label and its amount, right-aligned under a table's last column (bold: the total). */
export function totalLine(doc: Doc, label: string, value: string, bold = false): void {
  const width = doc.page.width - MARGIN * 2;
  const top = doc.y;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 12 : 10);
  doc.text(label, MARGIN, top, { width: width - 120, align: 'right' });
  doc.text(value, MARGIN + width - 110, top, { width: 110, align: 'right' });
  doc.x = MARGIN;
}

/** One row of a table from the left margin: each cell in its column, as tall as its tallest cell. */
export function tableRow(
  doc: Doc,
  columns: readonly PdfColumn[],
  cells: string[],
  gap: number,
): void {
  const top = doc.y;
  let x = MARGIN;
  let height = 0;
  cells.forEach((cell, i) => {
    const c = columns[i]!;
    height = Math.max(height, doc.heightOfString(cell, { width: c.width - 6 }));
    doc.text(cell, x, top, { width: c.width - 6, align: c.align });
    x += c.width;
  });
  doc.x = MARGIN;
  doc.y = top + height + gap;
}
