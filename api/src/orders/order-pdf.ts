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
import {
  deliveryAddressText,
  deliveryChoiceText,
  deliveryFeeText,
  formatDate,
  formatDateTime,
  formatMoney,
  ORDER_DOCUMENT_TEXTS as T,
  SHOP_IDENTITY,
  type OrderDeliveryChoice,
  lineItemName,
  lineSeedlings,
} from '@spc/shared-contracts';
import { drawEtims, type EtimsPrint } from '../etims/etims-pdf';
import type { OrderDto } from './dto/order-view.dto';

/** Who the documents name as the seller, beside the shop's name and place. */
export interface ShopContacts {
  phone: string;
  website: string;
}

/** The order's delivery choice, when checkout recorded one. */
export function deliveryOf(order: OrderDto): OrderDeliveryChoice | null {
  return (order as OrderDto & { delivery?: OrderDeliveryChoice | null }).delivery ?? null;
}

function header(doc: Doc, shop: ShopContacts, title: string, order: OrderDto): void {
  doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(18).text(SHOP_IDENTITY.name);
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(10)
    .text(`${SHOP_IDENTITY.place} · Phone ${shop.phone} · ${shop.website}`);
  doc.moveDown(1.2);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text(title);
  doc.font('Helvetica').fontSize(10).moveDown(0.3);
  doc.text(`Purchase number: ${order.purchaseNumber}`);
  doc.text(`Order date: ${formatDate(order.orderDate)}`);
  doc.moveDown(0.8);
}

/** A simple table that starts a new page when a row would not fit, repeating the heading. */
function table(doc: Doc, columns: PdfColumn[], rows: string[][]): void {
  const heading = () => {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK);
    row(columns.map((c) => c.label));
    rule(doc);
    doc.font('Helvetica');
  };
  const row = (cells: string[]) => tableRow(doc, columns, cells, 4);
  heading();
  for (const cells of rows) {
    if (doc.y + 40 > doc.page.height - MARGIN) {
      doc.addPage();
      heading();
    }
    row(cells);
  }
  rule(doc);
}

/** A stamp ("PAID", "REFUNDED") at (x, y); the text cursor and font stay where they were. */
function stamp(doc: Doc, x: number, y: number, text: string): void {
  const cursor = { x: doc.x, y: doc.y };
  doc.save();
  doc.rotate(-12, { origin: [x + 60, y + 22] });
  doc.lineWidth(3).strokeColor('#c62828').roundedRect(x, y, 120, 44, 6).stroke();
  doc.font('Helvetica-Bold').fontSize(26);
  // A longer word is set smaller so that it stays inside the frame.
  const size = Math.min(26, Math.floor((26 * 108) / doc.widthOfString(text)));
  doc
    .fillColor('#c62828')
    .fontSize(size)
    .text(text, x, y + 22 - size / 2.6, { width: 120, align: 'center' });
  doc.restore();
  doc.x = cursor.x;
  doc.y = cursor.y;
  doc.fillColor(INK).font('Helvetica').fontSize(10);
}

/** The money given back when a paid order was cancelled, as the receipt prints it. */
export interface ReceiptRefund {
  method: string;
  amount: number;
  reference: string;
  refundedAt: string;
}

/**
 * The receipt: proof of payment, with the "Paid" stamp. Only for paid orders (the caller checks).
 * A paid order cancelled since is stamped "Refunded" (or "Cancelled" when no refund is on record)
 * and says when it was cancelled and what was given back: a receipt never says paid alone for
 * money the shop returned. `etims`: KRA's signing of the order's documents (its CU invoice
 * number, signature, time and QR code, or "eTIMS pending") with the tax by type; null when off.
 */
export function receiptPdf(
  order: OrderDto,
  shop: ShopContacts,
  refund: ReceiptRefund | null = null,
  etims: EtimsPrint | null = null,
): Promise<Buffer> {
  const cancelled = order.orderStatus === 'Cancelled';
  const booking = order.booking;
  // A booking with only its deposit paid gets a deposit receipt: it never says paid in full.
  const depositOnly = !!booking && order.paymentStatus !== 'Paid' && !!booking.depositPaidAt;
  const title = depositOnly ? T.depositReceipt : T.receipt;
  return render(`${title} ${order.purchaseNumber}`, (doc) => {
    header(doc, shop, title, order);
    stamp(
      doc,
      doc.page.width - MARGIN - 140,
      MARGIN + 60,
      cancelled
        ? refund
          ? T.refundedStamp
          : T.cancelledStamp
        : depositOnly
          ? T.depositStamp
          : T.paidStamp,
    );
    doc.font('Helvetica-Bold').text('Customer');
    doc.font('Helvetica').text(`${order.customerName} · ${order.guestInfo.phoneNumber}`);
    doc.moveDown(0.8);
    const width = doc.page.width - MARGIN * 2;
    table(
      doc,
      [
        { label: 'Item', width: width - 270, align: 'left' },
        { label: 'Qty', width: 50, align: 'right' },
        { label: 'Unit price', width: 100, align: 'right' },
        { label: 'Line total', width: 120, align: 'right' },
      ],
      order.products.map((l) => [
        lineItemName(l),
        String(l.quantity),
        formatMoney(l.unitPrice),
        formatMoney(l.lineTotal),
      ]),
    );
    totalLine(doc, 'Subtotal', formatMoney(order.subtotal));
    const choice = deliveryChoiceText(deliveryOf(order));
    totalLine(doc, choice ? `Delivery: ${choice}` : 'Delivery', deliveryFeeText(order.shippingFee));
    doc.moveDown(0.3);
    totalLine(doc, 'Total', formatMoney(order.totalAmount), true);
    if (booking) {
      doc.moveDown(0.3);
      totalLine(
        doc,
        `Deposit (${booking.depositPercent} %)${booking.depositPaidAt ? ', paid' : ''}`,
        formatMoney(booking.deposit),
      );
      const balanceDue = Math.max(0, order.totalAmount - order.amountPaid);
      totalLine(
        doc,
        order.paymentStatus === 'Paid' ? 'Balance, paid' : 'Balance due',
        formatMoney(order.paymentStatus === 'Paid' ? booking.balance : balanceDue),
        depositOnly,
      );
    }
    doc.moveDown(1.5);
    doc.font('Helvetica-Bold').fontSize(10).text('Payment');
    doc.font('Helvetica');
    const p = order.paymentDetails;
    if (booking) {
      doc.text(
        `Booking of seedlings ready from ${formatDate(`${booking.readyOn}T12:00:00Z`)} (${booking.productName})`,
      );
      if (booking.depositPaidAt)
        doc.text(
          `Deposit: ${formatMoney(booking.deposit)} paid on ${formatDateTime(booking.depositPaidAt)}${booking.depositReceipt ? ` (${booking.depositReceipt})` : ''}`,
        );
    }
    if (depositOnly) {
      doc.text(`Paid so far: ${formatMoney(order.amountPaid)}`);
    } else {
      doc.text(
        `Method: ${order.paymentMethod === 'Mpesa' ? 'M-Pesa' : (order.paymentMethod ?? '')}`,
      );
      doc.text(
        `${booking ? 'Balance paid' : 'Amount'}: ${formatMoney(p?.amount ?? order.totalAmount)}`,
      );
      if (p?.transactionCode) doc.text(`M-Pesa receipt code: ${p.transactionCode}`);
      const paidAt = p?.timePaid ?? order.paidAt;
      if (paidAt) doc.text(`Paid on: ${formatDateTime(paidAt)}`);
    }
    if (cancelled) {
      doc.moveDown(0.8);
      doc.font('Helvetica-Bold').text('Cancelled');
      doc.font('Helvetica');
      if (order.cancelledDate) doc.text(`Cancelled on: ${formatDateTime(order.cancelledDate)}`);
      if (refund) {
        const how = refund.method === 'Mpesa' ? 'M-Pesa' : refund.method;
        doc.text(
          `Refunded: ${formatMoney(refund.amount)} by ${how}${refund.reference ? ` (${refund.reference})` : ''} on ${formatDateTime(refund.refundedAt)}`,
        );
      }
    }
    drawEtims(doc, etims);
    doc.moveDown(2);
    doc.fillColor(MUTED).fontSize(9).text(`Thank you for buying from ${SHOP_IDENTITY.name}.`);
  });
}

/**
 * The delivery note for the driver: where, who to call, what, and a line to sign; with eTIMS on,
 * the order's signed documents (or "eTIMS pending") and their tax by type.
 */
export function deliveryNotePdf(
  order: OrderDto,
  shop: ShopContacts,
  etims: EtimsPrint | null = null,
): Promise<Buffer> {
  return render(`${T.deliveryNote} ${order.purchaseNumber}`, (doc) => {
    header(doc, shop, T.deliveryNote, order);
    const g = order.guestInfo;
    doc.font('Helvetica-Bold').text('Deliver to');
    doc.font('Helvetica').text(g.fullName);
    doc.text(`Phone: ${g.phoneNumber}`);
    doc.text(`Address: ${deliveryAddressText(g)}`);
    const choice = deliveryChoiceText(deliveryOf(order));
    if (choice) doc.text(`Delivery: ${choice}`);
    doc.moveDown(0.8);
    const width = doc.page.width - MARGIN * 2;
    table(
      doc,
      [
        { label: 'Item', width: width - 80, align: 'left' },
        { label: 'Quantity', width: 80, align: 'right' },
      ],
      order.products.map((l) => [lineItemName(l), String(l.quantity)]),
    );
    const units = order.products.reduce((n, l) => n + lineSeedlings(l), 0);
    totalLine(doc, 'Seedlings in all', String(units), true);
    drawEtims(doc, etims);
    doc.moveDown(3);
    if (doc.y + 80 > doc.page.height - MARGIN) doc.addPage();
    const y = doc.y + 30;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + 320, y)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke();
    doc.y = y + 4;
    doc.x = MARGIN;
    doc.font('Helvetica').fontSize(10).fillColor(INK).text(T.signature);
  });
}
