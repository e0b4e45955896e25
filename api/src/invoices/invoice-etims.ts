import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { CreditNoteReason } from '@spc/shared-contracts';
import { OnDomainEvent } from '../common/events/domain-events';
import { Scheduler } from '../common/scheduler/scheduler';
import type { EtimsDocument } from '../etims/etims-documents.repository';
import { EtimsQueue, type EtimsRebuild } from '../etims/etims-queue.service';
import type { EtimsDocumentInput } from '../etims/etims-request';
import type { OscuCreditNoteReason } from '../etims/oscu.types';
import { shareOfLines } from '../etims/oscu-tax';
import { OrderEtims, type Lines } from '../orders/order-etims';
import { TrancheOrders } from '../orders/tranche-orders';
import { OrganisationsService } from '../organisations/organisations.service';
import type { InvoiceEvent } from './invoice-issuing';
import type { CreditNoteEvent } from './invoice-settlements';
import { InvoicesRepository, type InvoiceRecord } from './invoices.repository';
import type { InvoiceSettlement } from './schemas/invoice.schema';

/** How far back the sweep looks for issued invoices never queued for signing. */
export const INVOICE_ETIMS_SWEEP_DAYS = 7;
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_PAGE = 200;

/** The eTIMS source keys of an invoice and of a credit note on it (its `cn:…` id). */
export const invoiceSource = (invoiceId: string) => `invoice:${invoiceId}`;
export const creditNoteSource = (creditNoteId: string) => `creditnote:${creditNoteId}`;

/** KRA's payment type of a sale on account: `02` credit. */
const ON_ACCOUNT = '02';

/**
 * KRA's credit note reason (`rfdRsnCd`) of ours. A short delivery is `01` missing quantity. KRA's
 * list has no reason for a price correction, and a return on account gives no money back either:
 * both are `06` refund, KRA's general reason for value given back (here taken off what is owed),
 * as the orders' refunds are.
 */
const CREDIT_REASONS: Readonly<Record<CreditNoteReason, OscuCreditNoteReason>> = {
  short: '01',
  return: '06',
  price: '06',
};

const cents = (kes: number) => Math.round(kes * 100);

/**
 * Signs the invoices on account with KRA eTIMS (issue 45, docs/etims.md "What is signed"): an
 * invoice when it is issued (`invoice:<id>`, a credit sale `02` to the organisation, its tax point
 * the issue, its lines the invoice's: a tranche's delivered lines, the fee on the first), and each
 * credit note on it against it (`creditnote:<cn id>`, a share of the invoice's signed lines).
 * Never in the issuing's way: a listener's failure is logged, and the sweep queues what a crash
 * left. With eTIMS off it does nothing. The orders' own signing leaves orders on account to this.
 */
@Injectable()
export class InvoiceEtims implements OnModuleInit {
  private readonly logger = new Logger(InvoiceEtims.name);

  constructor(
    private readonly queue: EtimsQueue,
    private readonly orderEtims: OrderEtims,
    private readonly orders: TrancheOrders,
    private readonly invoices: InvoicesRepository,
    private readonly organisations: OrganisationsService,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    if (!this.queue.enabled) return;
    this.queue.rebuildWith('invoice:', (doc) => this.rebuild(doc));
    this.scheduler.declare({
      name: 'etims.invoices-sweep',
      everyMs: SWEEP_EVERY_MS,
      runsOn: 'one',
      atStart: true,
      run: (now) => this.sweep(now),
    });
  }

  @OnDomainEvent('invoice.issued')
  async onIssued(event: InvoiceEvent): Promise<void> {
    await this.safely(event.invoice.number ?? event.invoice._id, () => this.sign(event.invoice));
  }

  @OnDomainEvent('invoice.creditNoted')
  async onCreditNote(event: CreditNoteEvent): Promise<void> {
    await this.safely(event.creditNote.number ?? event.creditNote.id, async () => {
      const invoice = await this.invoices.find(event.invoiceId);
      if (invoice) await this.credit(invoice, event.creditNote);
    });
  }

  /**
   * The invoices issued in the last days without their document, or with a credit note without
   * its own (a crash between the write and the queue, eTIMS turned on after): queued now, under
   * the same keys. Answers how many documents were queued.
   */
  async sweep(now = new Date()): Promise<number> {
    if (!this.queue.enabled) return 0;
    let since = new Date(now.getTime() - INVOICE_ETIMS_SWEEP_DAYS * 86_400_000);
    const seen = new Set<string>();
    let queued = 0;
    for (;;) {
      const read = await this.invoices.issuedSince(since, SWEEP_PAGE);
      const page = read.filter((i) => !seen.has(i._id) && i.number);
      const have = await this.queue.existing(
        page.flatMap((i) => [
          invoiceSource(i._id),
          ...creditNotesOf(i).map((n) => creditNoteSource(n.id)),
        ]),
      );
      for (const invoice of page) {
        seen.add(invoice._id);
        const notes = creditNotesOf(invoice).filter((n) => !have.has(creditNoteSource(n.id)));
        if (have.has(invoiceSource(invoice._id)) && !notes.length) continue;
        try {
          if (await this.sign(invoice)) queued++;
          for (const note of notes) if (await this.credit(invoice, note)) queued++;
        } catch (error) {
          this.logger.error(
            `eTIMS: invoice ${invoice.number} could not be queued: ${(error as Error).message}`,
          );
        }
      }
      for (const invoice of read) seen.add(invoice._id);
      const last = read[read.length - 1];
      if (read.length < SWEEP_PAGE || !last || last.issuedAt.getTime() === since.getTime()) break;
      since = last.issuedAt;
    }
    if (queued) this.logger.warn(`eTIMS: ${queued} invoice document(s) found unqueued and queued`);
    return queued;
  }

  /** Queues an issued (numbered) invoice's document; true when new. */
  async sign(invoice: InvoiceRecord): Promise<boolean> {
    if (!this.queue.enabled || !invoice.number) return false;
    const { lines, problem } = await this.linesOf(invoice);
    const result = await this.queue.enqueue({
      source: invoiceSource(invoice._id),
      kind: 'sale',
      trdInvcNo: invoice.number,
      orderId: invoice.orderId,
      // The organisation as the invoice names it (its PIN checked when it was issued).
      buyer: { tin: invoice.organisationKraPin, name: invoice.organisationName, person: false },
      paymentType: ON_ACCOUNT,
      at: new Date(invoice.issuedAt),
      lines,
      problem,
      by: invoice.byId ? { id: invoice.byId, name: invoice.byName } : null,
    });
    return !!result?.created;
  }

  /** Queues a credit note's document against its invoice's (queued first if missed); true when new. */
  async credit(invoice: InvoiceRecord, note: InvoiceSettlement): Promise<boolean> {
    if (!this.queue.enabled || note.kind !== 'creditNote') return false;
    await this.sign(invoice);
    const original = await this.queue.find(invoiceSource(invoice._id));
    if (!original) return false;
    const result = await this.queue.enqueue({
      source: creditNoteSource(note.id),
      kind: 'credit-note',
      original: original._id,
      trdInvcNo: note.number ?? note.reference,
      orderId: invoice.orderId,
      buyer: original.input.buyer ?? null,
      paymentType: original.input.paymentType,
      at: new Date(note.at),
      creditReason: CREDIT_REASONS[note.reason ?? 'price'],
      // A price corrected brings no seedling back; a return or a short delivery does.
      returnsGoods: (note.reason ?? 'price') !== 'price',
      lines: shareOfLines(original.input.lines, note.amount),
      by: note.byId ? { id: note.byId, name: note.byName } : null,
    });
    return !!result?.created;
  }

  /**
   * What a clerk's resend of a failed invoice document is rebuilt with (registered for `invoice:`
   * with the queue's resend): the lines built again from the products as they are now (a
   * classification set, a tax type fixed), the buyer the organisation as it is now (a PIN
   * corrected), and what still keeps it from KRA. Null when the invoice is gone. An invoice's
   * credit notes keep their lines: they are shares of the invoice's signed lines.
   */
  async rebuild(
    doc: EtimsDocument,
  ): Promise<(EtimsRebuild & Pick<EtimsDocumentInput, 'buyer'>) | null> {
    const invoice = await this.invoices.find(doc._id.slice('invoice:'.length));
    if (!invoice) return null;
    const { lines, problem } = await this.linesOf(invoice);
    const org = await this.organisations.taxBuyerOf(invoice.organisationId);
    const buyer = {
      tin: org?.kraPin ?? invoice.organisationKraPin,
      name: org?.name ?? invoice.organisationName,
      person: false,
    };
    const whole = lines.reduce(
      (n, l) => n + cents(l.unitPrice * l.qty) - cents(l.discount ?? 0),
      0,
    );
    const total = cents(doc.request.totAmt);
    return {
      lines: total === whole ? lines : shareOfLines(lines, total / 100),
      buyer,
      problem,
    };
  }

  /** The invoice's lines and fee as eTIMS lines, built as the order's are (items per sale unit). */
  private async linesOf(invoice: InvoiceRecord): Promise<Lines> {
    const order = await this.orders.find(invoice.orderId);
    if (!order) throw new Error(`the order ${invoice.purchaseNumber} of the invoice is not found`);
    return this.orderEtims.linesOf(order, invoice);
  }

  /** A listener's work, never in the way of the step that announced it. */
  private async safely(what: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.error(
        `eTIMS: ${what} could not be queued for signing: ${(error as Error).message}`,
      );
    }
  }
}

/** An invoice's credit notes (its settlements of that kind). */
const creditNotesOf = (invoice: InvoiceRecord) =>
  invoice.settlements.filter((s) => s.kind === 'creditNote');
