import { Inject, Injectable } from '@nestjs/common';
import {
  CREDIT_NOTE_REASON_LABELS,
  formatDate,
  formatMoney,
  INVOICE_PAYMENT_KIND_LABELS,
  SHOP_IDENTITY,
  trancheLabel,
  type InvoiceView,
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
  totalLine,
} from '../common/pdf-document';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { drawEtims, type EtimsPrint } from '../etims/etims-pdf';
import { EtimsQueue } from '../etims/etims-queue.service';
import { invoiceView, InvoiceViews } from './invoice-views';

export interface InvoicePdfInput {
  invoice: InvoiceView;
  /** Where the invoice's site was (its tranche's), if it bills a tranche. */
  site: { name: string; county: string; subCounty: string } | null;
  shop: { phone: string; email: string; website: string };
  /** The M-Pesa paybill it is paid to, when the shop has one. */
  paybill: string | null;
  /** The shop's bank details in words, when configured. */
  bank: string | null;
  /** KRA's signing of the invoice and its credit notes (or "eTIMS pending"); null when off. */
  etims?: EtimsPrint | null;
}

const COLUMNS: PdfColumn[] = [
  { label: 'Item', width: 215, align: 'left' },
  { label: 'Qty', width: 70, align: 'right' },
  { label: 'Unit price', width: 105, align: 'right' },
  { label: 'Amount', width: 105, align: 'right' },
];

const row = (doc: Doc, cells: string[]) => tableRow(doc, COLUMNS, cells, 4);

/** The day an ISO instant or a shop day falls on, in words. */
const day = (value: string) => formatDate(value.length === 10 ? `${value}T12:00:00Z` : value);

/**
 * An invoice as the PDF the organisation files (A4): the shop and the organisation with their KRA
 * PINs, the LPO and purchase numbers, the tranche and its site, the lines delivered at the quoted
 * prices, the delivery fee, the total and due date, what is paid, withheld and credited, the
 * balance, and how to pay (the paybill with the invoice number as the account; the bank); with
 * eTIMS on, KRA's CU invoice number, signature, time and QR code (or "eTIMS pending") and the tax
 * by type, for the invoice and each credit note against it.
 */
export function invoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice: i, shop } = input;
  const title = `Invoice ${i.number}`;
  return renderPdf(title, (doc) => {
    doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(18).text(i.shop.name);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(`${SHOP_IDENTITY.place} · Phone ${shop.phone} · ${shop.email} · ${shop.website}`);
    if (i.shop.kraPin) doc.text(`KRA PIN ${i.shop.kraPin}`);
    doc.moveDown(1.2);
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text(title);
    doc.font('Helvetica').fontSize(10).moveDown(0.3);
    doc.text(`Issued ${day(i.issuedAt)}`);
    doc.font('Helvetica-Bold').text(`Due ${day(i.dueDate)}`);
    doc.font('Helvetica').moveDown(0.8);
    doc.font('Helvetica-Bold').text('Bill to');
    doc.font('Helvetica').text(i.organisation.name);
    doc.text(`KRA PIN ${i.organisation.kraPin}`);
    doc.moveDown(0.5);
    doc.text(`LPO number: ${i.lpoNumber}`);
    doc.text(`Purchase number: ${i.purchaseNumber}`);
    doc.text(i.tranche === null ? 'Bills: the whole order' : `Tranche: ${trancheLabel(i.tranche)}`);
    if (input.site)
      doc.text(
        `Delivered to: ${[input.site.name, input.site.subCounty, `${input.site.county} County`]
          .filter(Boolean)
          .join(', ')}`,
      );
    doc.moveDown(0.8);

    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK);
    row(
      doc,
      COLUMNS.map((c) => c.label),
    );
    rule(doc);
    doc.font('Helvetica');
    for (const l of i.lines) {
      if (doc.y + 40 > doc.page.height - MARGIN) doc.addPage();
      row(doc, [
        `${l.productName} (${l.unitName})`,
        l.quantity.toLocaleString('en-US'),
        formatMoney(l.unitPrice),
        formatMoney(l.amount),
      ]);
    }
    rule(doc);
    totalLine(doc, 'Subtotal', formatMoney(i.total - i.fee));
    if (i.fee) totalLine(doc, 'Delivery', formatMoney(i.fee));
    totalLine(doc, 'Total', formatMoney(i.total), true);
    if (i.paid) totalLine(doc, 'Paid', formatMoney(i.paid));
    if (i.withheld) totalLine(doc, 'Tax withheld', formatMoney(i.withheld));
    if (i.credited) totalLine(doc, 'Credited', formatMoney(i.credited));
    totalLine(doc, 'Balance due', formatMoney(i.balance), true);
    if (i.excess) totalLine(doc, 'Paid beyond the balance (excess)', formatMoney(i.excess));

    if (i.payments.length || i.creditNotes.length) {
      doc.moveDown(0.8).font('Helvetica-Bold').fontSize(10).text('Settled by');
      doc.font('Helvetica');
      for (const p of i.payments)
        doc.text(
          `${day(p.at)} · ${INVOICE_PAYMENT_KIND_LABELS[p.kind]} ${p.reference} · ${formatMoney(p.amount)}`,
        );
      for (const c of i.creditNotes)
        doc.text(
          `${day(c.at)} · Credit note ${c.number} (${CREDIT_NOTE_REASON_LABELS[c.reason]}) · ${formatMoney(c.amount)}`,
        );
    }

    doc.moveDown(1.2).font('Helvetica-Bold').fontSize(10).text('How to pay');
    doc.font('Helvetica');
    if (input.paybill) doc.text(`Pay by M-Pesa paybill ${input.paybill}, account ${i.number}`);
    if (input.bank) doc.text(input.bank, { width: doc.page.width - MARGIN * 2 });
    if (!input.paybill && !input.bank)
      doc.text(
        `Quote invoice ${i.number} with your payment; ask the shop for its payment details.`,
      );
    doc
      .moveDown(0.6)
      .fillColor(MUTED)
      .text(`Payment is due by ${day(i.dueDate)}. Quote ${i.number} with every payment.`, {
        width: doc.page.width - MARGIN * 2,
      })
      .fillColor(INK);
    drawEtims(doc, input.etims ?? null);
  });
}

/** An invoice's PDF for a caller who may read it (else 404 'Invoice not found'). */
@Injectable()
export class InvoicePdf {
  constructor(
    private readonly views: InvoiceViews,
    private readonly etims: EtimsQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async pdf(actor: Principal, id: string): Promise<{ filename: string; pdf: Buffer }> {
    const record = await this.views.readable(actor, id);
    const invoice = invoiceView(record);
    const pdf = await invoicePdf({
      invoice,
      site: record.site,
      shop: {
        phone: this.config.shopContacts.phone,
        email: this.config.shopContacts.email,
        website: this.config.storefrontUrl.replace(/^https?:\/\//, ''),
      },
      paybill: this.config.mpesa?.shortcode ?? null,
      bank: null,
      etims: this.etims.enabled
        ? { documents: await this.etims.withCredits(`invoice:${invoice.id}`), expected: true }
        : null,
    });
    return { filename: `${invoice.number || `invoice-${invoice.id}`}.pdf`, pdf };
  }
}
