import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { effectiveTaxType } from '@spc/shared-contracts';
import { ProductsRepository } from '../catalog/products.repository';
import { TaxSettingsService } from '../catalog/tax-settings.service';
import { OnDomainEvent } from '../common/events/domain-events';
import { isObjectId } from '../common/parse-object-id.pipe';
import { Scheduler } from '../common/scheduler/scheduler';
import { EtimsItems } from '../etims/etims-items.service';
import type { EtimsDocument } from '../etims/etims-documents.repository';
import { EtimsQueue, type EtimsRebuild } from '../etims/etims-queue.service';
import type { EtimsDocumentInput } from '../etims/etims-request';
import { shareOfLines, type OscuLine } from '../etims/oscu-tax';
import type { OscuPaymentType } from '../etims/oscu.types';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import { MoneyLedgerService } from '../money/money-ledger.service';
import { OrganisationsService } from '../organisations/organisations.service';
import type { OrderEvent } from './order-events';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

/**
 * The delivery fee's item classification: UNSPSC 78101800 "Road cargo transport" in KRA's
 * ten-digit form. Check it against `selectItemClsList` in the sandbox when onboarding.
 */
export const DELIVERY_ITEM_CLASS = '7810180000';
/** How far back the sweep looks for paid orders never queued for signing. */
export const ETIMS_SWEEP_DAYS = 7;
/** How far back the sweep looks for bookings' deposits and refunds never queued. */
const FOLLOW_UP_DAYS = 1;
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_PAGE = 200;

/** The tax point's parts of a booking: each deposit payment, then the balance. */
export const saleSource = (orderId: string) => `order:${orderId}:sale`;
export const depositSource = (orderId: string, entryId: string) =>
  `order:${orderId}:deposit:${entryId}`;
export const balanceSource = (orderId: string) => `order:${orderId}:balance`;

/** A refund's credit note: the part of one outgoing entry credited against one original. */
export const refundSource = (entryId: string, original: string) => `refund:${entryId}@${original}`;

const cents = (kes: number) => Math.round(kes * 100);

/**
 * Who registers a refund's credit note with KRA: the clerk (staff, admin) who made it. A customer's
 * own refund, or the shop's, is registered as the shop (`system`), as a sale is: a customer is
 * never KRA's registrar, nor is their name kept on the document.
 */
function registrarOfRefund(out: MoneyEntryRecord): EtimsDocumentInput['by'] {
  const clerk = out.byRole === 'staff' || out.byRole === 'admin';
  return clerk && out.byId ? { id: out.byId, name: out.byName } : null;
}

/** The order's lines as eTIMS lines, and what keeps them from KRA (null when nothing does). */
export interface Lines {
  lines: OscuLine[];
  problem: string | null;
}

/**
 * What a document bills of an order: each order line's position with its quantity and what it
 * comes to (KES), and the delivery fee (0 for none).
 */
export interface BilledLines {
  lines: readonly { line: number; quantity: number; amount: number }[];
  fee: number;
}

/** The order as placed: every line whole, at what was paid for it, and its delivery fee. */
const placedLines = (order: OrderRecord): BilledLines => ({
  lines: order.products.map((p, line) => ({ line, quantity: p.quantity, amount: p.lineTotal })),
  fee: order.shippingFee,
});

/**
 * Signs the shop's orders with KRA eTIMS (issue 45, docs/etims.md "What is signed"), after the money
 * is in and never in its way: a listener's failure is logged, and the sweep queues what a crash
 * left. With eTIMS off it does nothing.
 *
 * - A paid order: `order:<id>:sale` at its payment (the tax point), M-Pesa `06`, cash `01`.
 * - A booking: each payment's deposit part when it is received (`order:<id>:deposit:<entry>`),
 *   the balance when it is paid (`order:<id>:balance`), each the same share of every line.
 * - A refund (a paid order cancelled, a booking's deposit given back): for each outgoing entry a
 *   credit note `refund:<entry>@<original>` against the order's sale (or each of its deposits and
 *   balance it reaches).
 *
 * Orders on account are signed by their invoice (the invoices module's InvoiceEtims, which builds
 * its lines with `linesOf`), not here.
 */
@Injectable()
export class OrderEtims implements OnModuleInit {
  private readonly logger = new Logger(OrderEtims.name);

  constructor(
    private readonly queue: EtimsQueue,
    private readonly items: EtimsItems,
    private readonly products: ProductsRepository,
    private readonly taxSettings: TaxSettingsService,
    private readonly organisations: OrganisationsService,
    private readonly orders: OrdersRepository,
    private readonly ledger: MoneyLedgerService,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    // The order's documents (`order:`); its refunds' credit notes (`refund:`) keep their lines.
    this.queue.rebuildWith('order:', (doc) => this.rebuild(doc));
    if (!this.queue.enabled) return;
    this.scheduler.declare({
      name: 'etims.orders-sweep',
      everyMs: SWEEP_EVERY_MS,
      runsOn: 'one',
      atStart: true,
      run: (now) => this.sweep(now),
    });
  }

  @OnDomainEvent('order.paid')
  async onPaid(event: OrderEvent): Promise<void> {
    await this.safely(event.order, () => this.signPaid(event.order));
  }

  @OnDomainEvent('booking.depositPaid')
  async onDeposit(event: OrderEvent): Promise<void> {
    await this.safely(event.order, () => this.signDeposits(event.order));
  }

  @OnDomainEvent('order.partPaid')
  async onPartPaid(event: OrderEvent): Promise<void> {
    if (event.order.booking) await this.safely(event.order, () => this.signDeposits(event.order));
  }

  @OnDomainEvent('order.cancelled')
  async onCancelled(event: OrderEvent): Promise<void> {
    await this.safely(event.order, () => this.creditRefund(event.order));
  }

  /** Part of a gate sale given back: credited as any refund, by its outgoing entries. */
  @OnDomainEvent('order.refunded')
  async onRefunded(event: OrderEvent): Promise<void> {
    await this.safely(event.order, () => this.creditRefund(event.order));
  }

  @OnDomainEvent('booking.refunded')
  async onBookingRefunded(event: OrderEvent): Promise<void> {
    await this.safely(event.order, () => this.creditRefund(event.order));
  }

  /**
   * The paid orders of the last days without their document (a crash between the payment and the
   * queue, eTIMS turned on after): queued now, under the same keys. Answers how many were queued.
   */
  async sweep(now = new Date()): Promise<number> {
    if (!this.queue.enabled) return 0;
    let since = new Date(now.getTime() - ETIMS_SWEEP_DAYS * 86_400_000);
    const seen = new Set<string>();
    let queued = 0;
    for (;;) {
      const read = await this.orders.paidSince(since, SWEEP_PAGE);
      const page = read.filter((o) => !seen.has(o._id));
      if (!page.length) break;
      const wanted = page.filter((o) => !o.onAccount);
      const have = await this.queue.existing(
        wanted.map((o) => (o.booking ? balanceSource(o._id) : saleSource(o._id))),
      );
      for (const order of wanted) {
        seen.add(order._id);
        if (have.has(order.booking ? balanceSource(order._id) : saleSource(order._id))) continue;
        try {
          if (await this.signPaid(order)) queued++;
        } catch (error) {
          this.logger.error(
            `eTIMS: order ${order.purchaseNumber} could not be queued: ${(error as Error).message}`,
          );
        }
      }
      for (const order of page) seen.add(order._id);
      const last = read[read.length - 1]!.paidAt;
      if (read.length < SWEEP_PAGE || !last || new Date(last).getTime() === since.getTime()) break;
      since = new Date(last);
    }
    if (queued) this.logger.warn(`eTIMS: ${queued} paid order(s) found unqueued and queued`);
    await this.sweepDepositsAndRefunds(now);
    return queued;
  }

  /**
   * A booking's deposits and a refund's credit notes whose listener was lost (a crash after the
   * money moved): the orders of the last day with a booking or money given back are signed again,
   * which queues only what is missing.
   */
  private async sweepDepositsAndRefunds(now: Date): Promise<void> {
    let since = new Date(now.getTime() - FOLLOW_UP_DAYS * 86_400_000);
    for (;;) {
      const page = await this.orders.bookedOrRefundedSince(since, SWEEP_PAGE);
      for (const order of page.filter((o) => !o.onAccount)) {
        if (order.booking) await this.safely(order, () => this.signDeposits(order));
        if (order.refundOut.length) await this.safely(order, () => this.creditRefund(order));
      }
      const last = page[page.length - 1]?.updatedAt;
      if (page.length < SWEEP_PAGE || !last || new Date(last).getTime() === since.getTime()) break;
      since = new Date(last);
    }
  }

  /** Queues a paid order's document (a booking's: its deposits and balance); true when new. */
  async signPaid(order: OrderRecord): Promise<boolean> {
    if (!this.queue.enabled || order.onAccount || !order.paidAt) return false;
    if (order.booking) {
      await this.signDeposits(order);
      return this.signBalance(order);
    }
    const { lines, problem } = await this.linesOf(order);
    const result = await this.queue.enqueue({
      ...(await this.common(order)),
      source: saleSource(order._id),
      kind: 'sale',
      at: new Date(order.paidAt),
      lines,
      problem,
    });
    return !!result?.created;
  }

  /**
   * An order's failed document rebuilt for a clerk's resend (EtimsQueue.resendRebuilt): its lines
   * built again from the products as they are now (a classification set, a tax type fixed), the
   * same share of them as before (a deposit, a balance), with what still keeps it from KRA. Null
   * when its order is gone (or was never one of ours): it is resent as it is.
   */
  async rebuild(doc: EtimsDocument): Promise<EtimsRebuild | null> {
    const order =
      doc.orderId && isObjectId(doc.orderId) ? await this.orders.findAnyById(doc.orderId) : null;
    if (!order) return null;
    const { lines, problem } = await this.linesOf(order);
    const total = cents(doc.request.totAmt);
    const whole = lines.reduce(
      (n, l) => n + cents(l.unitPrice * l.qty) - cents(l.discount ?? 0),
      0,
    );
    return {
      lines: total === whole ? lines : shareOfLines(lines, total / 100),
      problem,
    };
  }

  /** A booking's deposit payments, each its own document when received. */
  private async signDeposits(order: OrderRecord): Promise<void> {
    if (!this.queue.enabled || order.onAccount || !order.booking) return;
    const entries = (await this.ledger.ofOrder(order._id)).filter(
      (e) => e.direction === 'in' && e.state === 'credited' && (e.split?.deposit ?? 0) > 0,
    );
    if (!entries.length) return;
    const sorted = entries.sort((a, b) => a.at.getTime() - b.at.getTime());
    const have = await this.queue.existing(sorted.map((e) => depositSource(order._id, e._id)));
    const fresh = sorted.filter((e) => !have.has(depositSource(order._id, e._id)));
    if (!fresh.length) return;
    const { lines, problem } = await this.linesOf(order);
    for (const entry of fresh)
      await this.queue.enqueue({
        ...(await this.common(order)),
        // Each payment its own document: the purchase number and the deposit's place (-D1, -D2)
        // in the order they were queued (a payment credited late never takes an earlier one's).
        trdInvcNo: `${order.purchaseNumber}-D${await this.queue.nextTradeNumber(`deposits:${order._id}`)}`,
        source: depositSource(order._id, entry._id),
        kind: 'sale',
        paymentType: paymentTypeOf(entry.kind === 'cash' ? 'Cash' : 'Mpesa'),
        at: new Date(entry.at),
        lines: shareOfLines(lines, entry.split!.deposit),
        problem,
      });
  }

  /** A booking's balance, when it is paid: what the order costs less the deposits signed. */
  private async signBalance(order: OrderRecord): Promise<boolean> {
    const entries = (await this.ledger.ofOrder(order._id)).filter(
      (e) => e.direction === 'in' && e.state === 'credited',
    );
    const deposits = await this.queue.existing(entries.map((e) => depositSource(order._id, e._id)));
    const signed = entries
      .filter((e) => deposits.has(depositSource(order._id, e._id)))
      .reduce((n, e) => n + cents(e.split?.deposit ?? 0), 0);
    const rest = cents(order.totalAmount) - signed;
    if (rest <= 0) return false;
    const { lines, problem } = await this.linesOf(order);
    const result = await this.queue.enqueue({
      ...(await this.common(order)),
      trdInvcNo: `${order.purchaseNumber}-B`,
      source: balanceSource(order._id),
      kind: 'sale',
      at: new Date(order.paidAt!),
      lines: shareOfLines(lines, rest / 100),
      problem,
    });
    return !!result?.created;
  }

  /**
   * The credit notes of an order's refund, against what was signed of it: each outgoing entry's
   * KES taken off its sale (or its deposits and balance, in order), one credit note per entry and
   * original (`refund:<entry>@<original>`). Each entry is credited once however often and in
   * whatever order this runs (a second refund of a booking, a re-run after a crash midway): its
   * parts queued before are counted and kept, the rest queued.
   */
  private async creditRefund(order: OrderRecord): Promise<void> {
    if (!this.queue.enabled || order.onAccount || !order.refundOut.length) return;
    const outs = (await this.ledger.findByIds(order.refundOut))
      .filter((e) => e.direction === 'out' && e.state !== 'open')
      .sort((a, b) => a.at.getTime() - b.at.getTime() || a._id.localeCompare(b._id));
    if (!outs.length) return;
    // The sale first, should its listener have missed it (a paid order always has one).
    if (order.paidAt) await this.signPaid(order);
    else if (order.booking) await this.signDeposits(order);
    const originals = await this.originalsOf(order);
    // Each entry's parts queued before (a run before this one), KES cents by key.
    const parts = new Map<string, number>();
    for (const out of outs)
      for (const original of originals) {
        const part = await this.queue.find(refundSource(out._id, original));
        if (part) parts.set(part._id, cents(part.request.totAmt));
      }
    for (const out of outs) {
      let left =
        cents(out.amount) -
        originals.reduce((sum, o) => sum + (parts.get(refundSource(out._id, o)) ?? 0), 0);
      for (const source of originals) {
        const key = refundSource(out._id, source);
        if (left <= 0) break;
        if (parts.has(key)) continue;
        const original = await this.queue.find(source);
        if (!original) continue;
        const room = cents(original.request.totAmt) - (await this.queue.creditedOf(source, key));
        const amount = Math.min(room, left);
        if (amount <= 0) continue;
        // The order's credit notes -CN, -CN-2… in the order they are queued, never one twice.
        const n = await this.queue.nextTradeNumber(`credits:${order._id}`);
        await this.queue.enqueue({
          source: key,
          kind: 'credit-note',
          original: source,
          trdInvcNo: `${order.purchaseNumber}-CN${n > 1 ? `-${n}` : ''}`,
          orderId: order._id,
          buyer: original.input.buyer ?? null,
          paymentType: original.input.paymentType,
          at: new Date(out.at),
          creditReason: '06',
          lines: shareOfLines(original.input.lines, amount / 100),
          by: registrarOfRefund(out),
        });
        left -= amount;
      }
      if (left > 0)
        this.logger.error(
          `eTIMS: KES ${left / 100} of order ${order.purchaseNumber}'s refund ${out._id} has no signed sale to credit`,
        );
    }
  }

  /** What a refund of the order credits, in order: its sale, or a booking's deposits and balance. */
  private async originalsOf(order: OrderRecord): Promise<string[]> {
    if (!order.booking) return [saleSource(order._id)];
    const deposits = (await this.ledger.ofOrder(order._id))
      .filter((e) => e.direction === 'in')
      .sort((a, b) => a.at.getTime() - b.at.getTime())
      .map((e) => depositSource(order._id, e._id));
    return [...deposits, balanceSource(order._id)];
  }

  /** What every document of an order carries: its number, buyer, payment type and registrar. */
  private async common(
    order: OrderRecord,
  ): Promise<Pick<EtimsDocumentInput, 'trdInvcNo' | 'orderId' | 'buyer' | 'paymentType' | 'by'>> {
    return {
      trdInvcNo: order.purchaseNumber,
      orderId: order._id,
      buyer: await this.buyerOf(order),
      paymentType: paymentTypeOf(order.paymentMethod),
      by: null,
    };
  }

  /**
   * The buyer named on the tax invoice: an organisation's order from a quotation carries the
   * organisation's PIN (a body); a shopper's own KRA PIN, when the order has one, names them (a
   * person); else none (an anonymous sale).
   */
  private async buyerOf(order: OrderRecord): Promise<EtimsDocumentInput['buyer']> {
    if (order.quotation) {
      const org = await this.organisations.taxBuyerOf(order.quotation.organisationId);
      if (org?.kraPin) return { tin: org.kraPin, name: org.name, person: false };
    }
    const pin = (order as OrderRecord & { kraPin?: string | null }).kraPin;
    if (pin) return { tin: pin, name: order.guestInfo.fullName || null, person: true };
    return null;
  }

  /**
   * Each line billed (by default the order's lines as placed: the sale unit, quantity and price
   * paid, a quantity tier's price included), its item that unit's, its tax type the unit's, else
   * the product's, else the shop's default, and its classification the product's; the delivery fee
   * a line of its own, a service taxed at the shop's default type. A product without a
   * classification (or a tax type with the shop having no default) is the problem a clerk fixes.
   * An invoice on account bills its own lines (a tranche's delivered quantities) and fee.
   */
  async linesOf(order: OrderRecord, billed: BilledLines = placedLines(order)): Promise<Lines> {
    const shopDefault = await this.taxSettings.defaultTaxType();
    const problems: string[] = [];
    const products = new Map<string, Awaited<ReturnType<ProductsRepository['findTax']>>>();
    const lines: OscuLine[] = [];
    for (const bill of billed.lines) {
      const line = {
        ...order.products[bill.line]!,
        quantity: bill.quantity,
        lineTotal: bill.amount,
      };
      const productId = line.product._id;
      if (!products.has(productId)) products.set(productId, await this.products.findTax(productId));
      const product = products.get(productId) ?? null;
      const unit = product?.units.find((u) => u._id === line.unit._id);
      const name = `${line.productName}, ${line.unit.name}`.slice(0, 200);
      const taxType = effectiveTaxType(unit?.taxType, product?.taxType, shopDefault);
      if (!product)
        problems.push(
          `"${line.productName}" is no longer in the catalogue: its item classification is not known`,
        );
      else if (!product.itemClassCode)
        problems.push(
          `"${line.productName}" has no item classification code: set it on the product and resend`,
        );
      if (!taxType)
        problems.push(
          `"${line.productName}" has no tax type and the shop has no default: set one and resend`,
        );
      const gross = cents(line.unitPrice * line.quantity);
      const paid = cents(line.lineTotal);
      lines.push({
        itemCd: (await this.items.codeOf(
          `product:${productId}:${line.unit._id}`,
          '2',
          unit?.price ?? line.unitPrice,
        ))!,
        itemClsCd: product?.itemClassCode ?? '',
        itemNm: name,
        pkgUnitCd: 'NT',
        qtyUnitCd: 'U',
        qty: line.quantity,
        unitPrice: line.unitPrice,
        ...(gross > paid ? { discount: (gross - paid) / 100 } : {}),
        taxTyCd: taxType ?? 'B',
      });
    }
    if (billed.fee > 0) {
      if (!shopDefault)
        problems.push(
          'The delivery fee has no tax type: set the shop’s default tax type and resend',
        );
      lines.push({
        itemCd: (await this.items.codeOf('delivery', '3', billed.fee))!,
        itemClsCd: DELIVERY_ITEM_CLASS,
        itemNm: 'Delivery',
        pkgUnitCd: 'NT',
        qtyUnitCd: 'U',
        qty: 1,
        unitPrice: billed.fee,
        taxTyCd: shopDefault ?? 'B',
      });
    }
    return { lines, problem: problems.length ? [...new Set(problems)].join('; ') : null };
  }

  /** A listener's work, never in the way of the step that announced it. */
  private async safely(order: OrderRecord, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.error(
        `eTIMS: order ${order.purchaseNumber} could not be queued for signing: ${(error as Error).message}`,
      );
    }
  }
}

/** KRA's payment type of an order's payment: cash `01`, M-Pesa (mobile money) `06`. */
export function paymentTypeOf(method: OrderRecord['paymentMethod']): OscuPaymentType {
  return method === 'Cash' ? '01' : '06';
}
