import { randomUUID } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Scheduler, whileRenewing } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { EtimsConfig } from '../config/etims-config';
import {
  EtimsDocumentsRepository,
  redactBuyerOf,
  type EtimsDocument,
  type EtimsSignature,
  type EtimsState,
} from './etims-documents.repository';
import { EtimsDevicesStore, type EtimsDevice } from './etims-devices.store';
import { EtimsItems, type ItemsOutcome } from './etims-items.service';
import {
  buildSalesRequest,
  inputProblem,
  registrarOf,
  type EtimsDocumentInput,
} from './etims-request';
import { oscuSalesItems, oscuTotals, shareOfLines, type OscuLine } from './oscu-tax';
import { etimsView, type EtimsDocumentView } from './etims-views';
import {
  OscuClient,
  receiptVerificationUrl,
  type OscuSaleOutcome,
  type OscuSignature,
} from './oscu-client';

const cents = (kes: number) => Math.round(kes * 100);
/** Lines as compared: a credit note's are its share of its sale's as signed. */
const linesKey = (lines: readonly OscuLine[]) =>
  JSON.stringify(
    lines.map((l) => [l.itemCd, l.itemClsCd, l.taxTyCd, l.qty, l.unitPrice, l.discount ?? 0]),
  );
/**
 * A credit note's lines named as its sale's signed lines name their items (a classification or a
 * tax type a clerk fixed at the sale's resend), its quantities and amounts kept; should it name an
 * item the sale does not, it is its share of the sale's lines instead.
 */
function creditLinesOf(
  credit: readonly OscuLine[],
  sale: readonly OscuLine[],
  totAmt: number,
): OscuLine[] {
  const byItem = new Map(sale.map((l) => [l.itemCd, l]));
  if (credit.some((l) => !byItem.has(l.itemCd))) return shareOfLines(sale, totAmt);
  return credit.map((l) => {
    const named = byItem.get(l.itemCd)!;
    return { ...l, itemClsCd: named.itemClsCd, itemNm: named.itemNm, taxTyCd: named.taxTyCd };
  });
}

/** A buyer as compared: a credit note names its sale's. */
const buyerKey = (buyer: EtimsDocumentInput['buyer']) =>
  buyer?.tin ? `${buyer.tin}|${buyer.name ?? ''}|${!!buyer.person}` : '';

/** The longest wait between two attempts at a document OSCU did not answer. */
const MAX_BACKOFF_MS = 60 * 60_000;
/** Why a document answered 994 without a signature waits for a clerk. */
const NO_SIGNATURE =
  'KRA had received this invoice number before and gave no signature: copy it from KRA’s eTIMS portal';

/**
 * A document's lines as the module that owns its source builds them again from its data as it is
 * now, and what still keeps it from KRA (null when nothing does). The buyer stays the document's:
 * a clerk fixes it on the resend.
 */
export interface EtimsRebuild {
  lines: EtimsDocumentInput['lines'];
  problem: string | null;
}

/**
 * How the owner of a source rebuilds a failed document for a clerk's resend; null leaves it as it
 * is (the owner no longer has its data).
 */
export type EtimsRebuilder = (doc: EtimsDocument) => Promise<EtimsRebuild | null>;

/** What `enqueue` answers: the document, and whether this call queued it. */
export interface Enqueued {
  document: EtimsDocument;
  created: boolean;
}

/**
 * The eTIMS signing queue (issue 45). A module that has something to sign (a paid order, a
 * refund, an invoice on account) calls `enqueue` after the money is in; the document is written
 * once per source, holding the branch's next gap-free number (`invcNo`) and its request, and is
 * sent by the sender sweep, never in the way of the sale.
 *
 * Sending keeps KRA's order: each branch's line is sent by number, and the lowest number still to
 * be sent (queued or being sent) is the head; nothing after it goes before it, but for a credit
 * note whose sale KRA has not signed: it is set aside until it is (`creditReady`). A document is
 * claimed (`sending`, under a lease renewed while it is sent) by one attempt of one instance, so
 * two never send it at once. What KRA answers is saved: signed, or a duplicate with its
 * signature (saved so), or a duplicate without (`pending`, a clerk copies the signature), or a
 * refusal (`failed` with KRA's code and message, out of the line: a clerk fixes the data and
 * resends under the same number). No answer (offline, a timeout, a gateway's error) leaves it
 * queued, tried again with a growing wait, and the line waits for it. A crash between the send and
 * the save leaves it `sending`; once its lease lapses it is sent again under the same number,
 * which KRA answers as a duplicate with the first signature: never a second invoice.
 */
@Injectable()
export class EtimsQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(EtimsQueue.name);
  private readonly settings: EtimsConfig | null;
  private client: OscuClient | null = null;
  private device: Pick<EtimsDevice, 'sdcId' | 'mrcNo'> = { sdcId: null, mrcNo: null };
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly rebuilders = new Map<string, EtimsRebuilder>();
  private draining?: Promise<number>;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly documents: EtimsDocumentsRepository,
    private readonly devices: EtimsDevicesStore,
    private readonly scheduler: Scheduler,
    private readonly items: EtimsItems,
  ) {
    this.settings = config.etims;
  }

  /** False with ETIMS_ENV=off: nothing is queued, nothing is sent. */
  get enabled(): boolean {
    return this.settings !== null;
  }

  /** The branch's line of numbers: `<PIN>/<bhfId>`. */
  get sequence(): string | null {
    return this.settings ? `${this.settings.pin}/${this.settings.branch}` : null;
  }

  async onModuleInit(): Promise<void> {
    if (!this.settings) return;
    await this.documents.ensureIndexes();
    this.scheduler.declare({
      name: 'etims.send-due',
      everyMs: this.settings.sendEveryMs,
      runsOn: 'one',
      // What a crash or a stop left unsent is sent at start-up.
      atStart: true,
      run: (now) => this.sendDue(now),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Queues a document for signing, once per source: its number is taken in the same write that
   * inserts it; a source queued before answers its document and takes no number. Answers null
   * when eTIMS is off. A document that cannot be queued (no lines, a tax point ahead, a credit
   * note whose sale was never queued) is a 400, nothing written. Sending starts at once, in the
   * background.
   */
  async enqueue(input: EtimsDocumentInput): Promise<Enqueued | null> {
    if (!this.settings) return null;
    // Asked again (a callback twice): the first document, whatever this call carries.
    const existing = await this.documents.find(input.source);
    if (existing) return { document: existing, created: false };
    const now = new Date();
    const problem = inputProblem(input, now);
    if (problem) throw new BadRequestException(problem);
    let orgInvcNo = 0;
    if (input.kind === 'credit-note') {
      const original = await this.documents.find(input.original!);
      if (!original || original.kind !== 'sale')
        throw new BadRequestException(
          `The credit note's sale (${input.original}) was never queued for eTIMS`,
        );
      orgInvcNo = original.invcNo;
      await this.reserveOnOriginal(input, original);
    }
    const blocked = input.problem?.trim() || null;
    const result = await this.documents.insertNumbered(
      {
        _id: input.source,
        kind: input.kind,
        sequence: this.sequence!,
        original: input.kind === 'credit-note' ? input.original! : null,
        orgInvcNo,
        orderId: input.orderId ?? null,
        trdInvcNo: input.trdInvcNo,
        personalBuyer: !!input.buyer?.person,
        input,
        // A document the shop's data keeps from KRA waits for a clerk, holding its number.
        state: blocked ? 'failed' : 'queued',
        attempts: 0,
        nextTryAt: now,
        leaseUntil: now,
        sender: null,
        lastCode: null,
        lastMessage: blocked,
        signature: null,
        createdAt: now,
        updatedAt: now,
        signedAt: null,
      },
      (invcNo) => buildSalesRequest(input, invcNo, orgInvcNo, now),
    );
    if (result.created) this.kick();
    return result;
  }

  /** A document by its source; null when there is none (or eTIMS is off). */
  find(source: string): Promise<EtimsDocument | null> {
    return this.settings ? this.documents.find(source) : Promise.resolve(null);
  }

  /**
   * The next number of a family of the shop's own document numbers (a booking's deposits -D1,
   * -D2…, an order's credit notes -CN, -CN-2… in the order they are queued), never the same twice. Only asked for a document not yet
   * queued; a race that queues it twice at once leaves a number unused (the trader's numbers are
   * the shop's; KRA's `invcNo` stays gap-free).
   */
  nextTradeNumber(family: string): Promise<number> {
    return this.documents.next(family);
  }

  /**
   * KES cents credited so far against a sale (what its credit notes hold of it), but for the
   * credit note `except` (its own part, a re-run after a crash counts again).
   */
  async creditedOf(original: string, except?: string): Promise<number> {
    if (!this.settings) return 0;
    const doc = await this.documents.find(original);
    const credits =
      doc?.credits ??
      (await this.documents.creditsOf(original)).map((d) => ({
        source: d._id,
        cents: cents(d.request.totAmt),
      }));
    return credits.filter((c) => c.source !== except).reduce((sum, c) => sum + c.cents, 0);
  }

  /** Which of these sources have a document (a sweep's look for what was never queued). */
  existing(sources: readonly string[]): Promise<Set<string>> {
    return this.settings ? this.documents.existing(sources) : Promise.resolve(new Set());
  }

  /**
   * An order's documents as its readers see them (its sale, a booking's deposits and balance,
   * its invoices and credit notes), in number order; an empty list with eTIMS off.
   */
  async forOrder(orderId: string): Promise<EtimsDocumentView[]> {
    if (!this.settings) return [];
    const docs = await this.documents.forOrders([orderId]);
    return docs.sort((a, b) => a.invcNo - b.invcNo).map(etimsView);
  }

  /**
   * A document and the credit notes against it, as their readers see them (an invoice's PDF);
   * an empty list with eTIMS off or when nothing was queued for it.
   */
  async withCredits(source: string): Promise<EtimsDocumentView[]> {
    if (!this.settings) return [];
    const [doc, credits] = await Promise.all([
      this.documents.find(source),
      this.documents.creditsOf(source),
    ]);
    return [...(doc ? [doc] : []), ...credits].map(etimsView);
  }

  /** The documents in these states (the back office's queue: failed and pending, with KRA's words). */
  list(
    states: EtimsState[] = ['queued', 'sending', 'failed', 'pending'],
  ): Promise<EtimsDocument[]> {
    return this.settings ? this.documents.list(states) : Promise.resolve([]);
  }

  /**
   * Registers how the module that owns a kind of source rebuilds its failed documents when a clerk
   * resends one, so what was fixed since (a product's classification, its tax type) is what KRA
   * receives. `prefix` is the kind: what comes before a source's first colon, with it (`order:`;
   * `invoice:` and `creditnote:` for the invoices module). Call it from the owner's `onModuleInit`;
   * one owner per kind (a second is a programming error). The owners register here so that this
   * module imports none of them. Refunds' credit notes (`refund:`) have no rebuilder: their lines
   * are shares of their sale's signed lines, and are resent as they are.
   */
  rebuildWith(prefix: string, rebuild: EtimsRebuilder): void {
    if (!/^[a-z]+:$/.test(prefix))
      throw new Error(`An eTIMS source kind is lower-case letters and a colon, not ${prefix}`);
    if (this.rebuilders.has(prefix))
      throw new Error(`eTIMS documents of ${prefix} are rebuilt by another module already`);
    this.rebuilders.set(prefix, rebuild);
  }

  /**
   * A clerk's resend (the back office's): a failed document is first rebuilt by the owner of its
   * source, when one registered (`rebuildWith`), and `changes` (the clerk's) go over what it
   * rebuilt; anything else is resent as `resend` has it. A problem the rebuild still finds is a
   * 400 with why, and nothing changes.
   */
  async resendRebuilt(
    source: string,
    changes: Partial<Pick<EtimsDocumentInput, 'buyer'>> = {},
  ): Promise<EtimsDocument> {
    const doc = this.settings ? await this.documents.find(source) : null;
    const rebuild = doc?.state === 'failed' ? this.rebuilderOf(source) : undefined;
    const rebuilt = rebuild ? await rebuild(doc!) : null;
    return this.resend(source, { ...rebuilt, ...changes });
  }

  /** The rebuilder of a source's kind (what comes before its first colon, the colon included). */
  private rebuilderOf(source: string): EtimsRebuilder | undefined {
    return this.rebuilders.get(source.slice(0, source.indexOf(':') + 1));
  }

  /**
   * A clerk's resend of a document KRA refused (or answered without a signature), under its
   * number; `changes` rebuild its request (a line's classification, the buyer's PIN). A signed
   * document is a 409, as is one still in the line; an unknown one a 404.
   */
  async resend(
    source: string,
    changes: Partial<
      Pick<EtimsDocumentInput, 'lines' | 'buyer' | 'trdInvcNo' | 'by' | 'problem'>
    > = {},
  ): Promise<EtimsDocument> {
    if (!this.settings) throw new ConflictException('eTIMS is off (ETIMS_ENV)');
    const doc = await this.documents.find(source);
    if (!doc) throw new NotFoundException(`No eTIMS document ${source}`);
    if (doc.state === 'signed')
      throw new ConflictException(`${doc.trdInvcNo} is signed already (eTIMS ${doc.invcNo})`);
    if (doc.state === 'queued' || doc.state === 'sending')
      throw new ConflictException(`${doc.trdInvcNo} is on its way to KRA already`);
    const now = new Date();
    let rebuilt: Parameters<EtimsDocumentsRepository['requeue']>[3];
    if (Object.keys(changes).length || doc.input.problem) {
      const input: EtimsDocumentInput = {
        ...doc.input,
        ...changes,
        problem: changes.problem ?? null,
        at: new Date(doc.input.at),
      };
      // Still not fixed: said again, nothing changes.
      if (changes.problem) throw new BadRequestException(changes.problem);
      const problem = inputProblem(input, now);
      if (problem) throw new BadRequestException(problem);
      rebuilt = {
        input,
        request: buildSalesRequest(input, doc.invcNo, doc.orgInvcNo, doc.createdAt),
        personalBuyer: !!input.buyer?.person,
        trdInvcNo: input.trdInvcNo,
      };
    }
    if (!(await this.documents.requeue(source, [doc.state], now, rebuilt)))
      throw new ConflictException(`${doc.trdInvcNo} changed meanwhile: look again`);
    this.kick();
    return (await this.documents.find(source))!;
  }

  /**
   * Sends the branch's line from its head while documents are due at `now` (the wall clock by
   * default; a later `now` makes waiting retries due), one at a time, one pass at a time per
   * instance; stops at a document not due, one another attempt holds, or one OSCU did not answer.
   * Answers how many were signed.
   */
  async sendDue(now?: Date): Promise<number> {
    if (!this.settings) return 0;
    while (this.draining) await this.draining.catch(() => undefined);
    const pass = this.track(this.pass(now));
    this.draining = pass;
    try {
      return await pass;
    } finally {
      this.draining = undefined;
    }
  }

  /** A pass in the background (a document queued or resent), awaited on shutdown. */
  private kick(): void {
    if (this.stopping) return;
    void this.sendDue().catch(() => undefined);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  private async pass(at?: Date): Promise<number> {
    const settings = this.settings!;
    let signed = 0;
    try {
      for (;;) {
        if (this.stopping) break;
        const now = at ?? new Date();
        const clock = new Date();
        const head = await this.documents.head(this.sequence!);
        if (!head) break;
        const lapsed = head.state === 'sending' && head.leaseUntil <= clock;
        if (head.state === 'sending' && !lapsed) break; // another attempt has it
        if (head.state === 'queued' && head.nextTryAt > now) break; // its retry is not due
        if (
          head.kind === 'credit-note' &&
          head.state === 'queued' &&
          !(await this.creditReady(head))
        )
          continue; // set aside for its sale, or given its sale's buyer: the line is read again
        const client = await this.readyClient();
        if (!client) break;
        const sender = randomUUID();
        const leaseMs = Math.max(60_000, 3 * settings.timeoutMs);
        const claimed = await this.documents.claim(
          head,
          sender,
          now,
          clock,
          new Date(clock.getTime() + leaseMs),
        );
        if (!claimed) break;
        if (lapsed)
          this.logger.warn(
            `eTIMS ${claimed.invcNo} (${claimed._id}) was left being sent: sent again under its number`,
          );
        // Each line's item registered as the line has it, before the document that sells it.
        const items = await whileRenewing(
          () =>
            this.items.ensureRegistered(
              client,
              claimed.request.itemList,
              registrarOf(claimed.input.by),
            ),
          {
            everyMs: leaseMs / 3,
            renew: () => this.documents.renew(claimed._id, sender, new Date(Date.now() + leaseMs)),
          },
        );
        if (items.kind !== 'ok') {
          const result = await this.saveItems(claimed, sender, items);
          if (result === 'failed') continue;
          break;
        }
        const outcome = await whileRenewing(() => client.sendSale(claimed.request), {
          everyMs: leaseMs / 3,
          renew: () => this.documents.renew(claimed._id, sender, new Date(Date.now() + leaseMs)),
        });
        const result = await this.save(claimed, sender, outcome);
        if (result === 'signed') signed++;
        if (result === 'unreachable') break;
      }
    } catch (error) {
      this.logger.error(`Sending eTIMS documents failed: ${(error as Error).message}`);
    }
    return signed;
  }

  /**
   * Whether a credit note at the head can go as it is. KRA refuses a credit note against a sale
   * it has not signed: while its sale is not signed (refused, or waiting for a clerk) it is set
   * aside, out of the line, and the documents after it go; it is back in line when its sale is
   * signed (`releaseCredits`). It carries its sale's buyer as the sale is signed (a clerk may have
   * fixed the PIN KRA refused, or removed it): rebuilt so first. False: the line is read again.
   */
  private async creditReady(head: EtimsDocument): Promise<boolean> {
    const original = head.original ? await this.documents.find(head.original) : null;
    if (!original) return true;
    const at = new Date();
    if (original.state !== 'signed') {
      await this.documents.setAside(
        head._id,
        { source: original._id, trdInvcNo: original.trdInvcNo },
        at,
      );
      // Signed meanwhile, before it was set aside: back in line at once.
      if ((await this.documents.find(original._id))?.state === 'signed')
        await this.documents.release(original._id, at);
      return false;
    }
    // Its lines name their items as the sale KRA signed does (a clerk may have fixed a
    // classification or a tax type at the sale's resend), its buyer the sale's.
    const buyer = original.input.buyer ?? null;
    const lines = creditLinesOf(head.input.lines, original.input.lines, head.request.totAmt);
    if (
      buyerKey(head.input.buyer) === buyerKey(buyer) &&
      linesKey(head.input.lines) === linesKey(lines)
    )
      return true;
    const input: EtimsDocumentInput = { ...head.input, buyer, lines, at: new Date(head.input.at) };
    await this.documents.requeue(head._id, ['queued'], at, {
      input,
      request: buildSalesRequest(input, head.invcNo, head.orgInvcNo, head.createdAt),
      personalBuyer: !!buyer?.person,
      trdInvcNo: head.trdInvcNo,
    });
    return false;
  }

  /**
   * A sale signed: the credit notes set aside for it are back in line (the sender's, and a
   * signature a clerk copied from KRA's portal), and sent.
   */
  async releaseCredits(original: string): Promise<void> {
    if (!this.settings) return;
    if (await this.documents.release(original, new Date())) this.kick();
  }

  /** Saves what KRA answered an attempt; answers the state saved ('lost': the claim had gone). */
  private async save(
    doc: EtimsDocument,
    sender: string,
    outcome: OscuSaleOutcome,
  ): Promise<'signed' | 'pending' | 'failed' | 'unreachable' | 'lost'> {
    const at = new Date();
    let saved = false;
    let state: 'signed' | 'pending' | 'failed' | 'unreachable';
    switch (outcome.kind) {
      case 'signed':
      case 'duplicate':
        if (outcome.kind === 'duplicate' && !outcome.signature) {
          state = 'pending';
          saved = await this.documents.settle(doc._id, sender, at, {
            state: 'pending',
            lastCode: '994',
            lastMessage: `${outcome.message} — ${NO_SIGNATURE}`,
          });
          this.logger.warn(`eTIMS ${doc.invcNo} (${doc._id}): ${NO_SIGNATURE}`);
          break;
        }
        state = 'signed';
        saved = await this.documents.settle(doc._id, sender, at, {
          state: 'signed',
          lastCode: outcome.kind === 'signed' ? '000' : '994',
          lastMessage: outcome.kind === 'signed' ? null : outcome.message,
          signature: this.signatureOf(outcome.signature!),
          signedAt: at,
        });
        if (saved) await this.documents.release(doc._id, at);
        break;
      case 'rejected':
        state = 'failed';
        saved = await this.documents.settle(doc._id, sender, at, {
          state: 'failed',
          lastCode: outcome.code,
          lastMessage: outcome.message,
        });
        this.logger.warn(
          `KRA refused eTIMS ${doc.invcNo} (${doc._id}): ${outcome.code} ${redactBuyerOf(doc, outcome.message)}`,
        );
        break;
      case 'unreachable': {
        state = 'unreachable';
        const wait = Math.min(MAX_BACKOFF_MS, this.settings!.retryMs * 2 ** doc.attempts);
        saved = await this.documents.settle(doc._id, sender, at, {
          state: 'queued',
          lastCode: null,
          lastMessage: outcome.message,
          nextTryAt: new Date(at.getTime() + wait),
        });
        break;
      }
    }
    if (!saved)
      this.logger.warn(
        `eTIMS ${doc.invcNo} (${doc._id}): the attempt lost its lease before saving ${outcome.kind}`,
      );
    return saved ? state : 'lost';
  }

  /** Saves why a document's items kept it from being sent (KRA refused one, or did not answer). */
  private async saveItems(
    doc: EtimsDocument,
    sender: string,
    outcome: Exclude<ItemsOutcome, { kind: 'ok' }>,
  ): Promise<'failed' | 'queued' | 'lost'> {
    const at = new Date();
    let saved: boolean;
    if (outcome.kind === 'rejected') {
      saved = await this.documents.settle(doc._id, sender, at, {
        state: 'failed',
        lastCode: outcome.code,
        lastMessage: outcome.message,
      });
      this.logger.warn(
        `eTIMS ${doc.invcNo} (${doc._id}) not sent: ${redactBuyerOf(doc, outcome.message)}`,
      );
      if (saved) return 'failed';
    } else {
      const wait =
        outcome.kind === 'busy'
          ? 1000
          : Math.min(MAX_BACKOFF_MS, this.settings!.retryMs * 2 ** doc.attempts);
      saved = await this.documents.settle(doc._id, sender, at, {
        state: 'queued',
        lastCode: null,
        lastMessage: outcome.message,
        nextTryAt: new Date(at.getTime() + wait),
      });
      if (saved) return 'queued';
    }
    return 'lost';
  }

  /**
   * A credit note never credits more than is left of its sale: its amount is reserved on the sale
   * in one conditional update (so two at once never go over together), then it is inserted. A
   * re-run after a crash between the two finds its reservation and inserts. Over: 400, nothing
   * written.
   */
  private async reserveOnOriginal(
    input: EtimsDocumentInput,
    original: EtimsDocument,
  ): Promise<void> {
    const asked = cents(oscuTotals(oscuSalesItems(input.lines)).totAmt);
    const total = cents(original.request.totAmt);
    if (!original.credits) await this.documents.seedCredits(original._id);
    if (await this.documents.reserveCredit(original._id, input.source, asked, total)) return;
    const held = (await this.documents.find(original._id))?.credits ?? [];
    const mine = held.find((c) => c.source === input.source);
    if (mine && asked <= mine.cents) return;
    const left = total - held.reduce((sum, c) => sum + c.cents, 0);
    throw new BadRequestException(
      `A credit note of KES ${(asked / 100).toFixed(2)} is more than is left of ${original.trdInvcNo} to credit (KES ${(Math.max(0, left) / 100).toFixed(2)} of ${original.request.totAmt.toFixed(2)})`,
    );
  }

  private signatureOf(signature: OscuSignature): EtimsSignature {
    const { portalUrl, pin, branch } = this.settings!;
    return {
      ...signature,
      sdcId: signature.sdcId ?? this.device.sdcId,
      mrcNo: signature.mrcNo ?? this.device.mrcNo,
      qrUrl: receiptVerificationUrl(portalUrl, pin, branch, signature.rcptSign),
    };
  }

  /** The OSCU client, ready (for the stock movements); null while KRA cannot be asked. */
  oscu(): Promise<OscuClient | null> {
    return this.settings ? this.readyClient() : Promise.resolve(null);
  }

  /**
   * The OSCU client with the device's communication key: the configured one, else the one kept
   * from an earlier initialisation, else the device is initialised now and its key kept. Null
   * (logged) while KRA cannot be asked or refuses the device: the line waits.
   */
  private async readyClient(): Promise<OscuClient | null> {
    if (this.client) return this.client;
    const s = this.settings!;
    const id = `${s.pin}/${s.branch}/${s.deviceSerial}`;
    const kept = await this.devices.find(id);
    if (kept) this.device = { sdcId: kept.sdcId, mrcNo: kept.mrcNo };
    const key = s.cmcKey ?? kept?.cmcKey ?? null;
    if (key) return (this.client = this.clientWith(key));
    const client = this.clientWith(null);
    const init = await client.initialise();
    if (init.kind === 'ok') {
      const device = await this.devices.keep({
        _id: id,
        cmcKey: init.data.cmcKey,
        sdcId: init.data.sdcId ?? null,
        mrcNo: init.data.mrcNo ?? null,
        initialisedAt: new Date(),
      });
      this.device = { sdcId: device.sdcId, mrcNo: device.mrcNo };
      return (this.client = this.clientWith(device.cmcKey));
    }
    // 902 without a key: another instance may have kept it a moment ago.
    const other = init.kind === 'installed' ? await this.devices.find(id) : null;
    if (other) {
      this.device = { sdcId: other.sdcId, mrcNo: other.mrcNo };
      return (this.client = this.clientWith(other.cmcKey));
    }
    this.logger.error(
      init.kind === 'installed'
        ? 'eTIMS: KRA says the device is initialised already and gives no key again: set ETIMS_CMC_KEY to the key it gave first'
        : `eTIMS: the device could not be initialised: ${init.kind === 'rejected' ? `${init.code} ` : ''}${init.message}`,
    );
    return null;
  }

  private clientWith(cmcKey: string | null): OscuClient {
    const s = this.settings!;
    return new OscuClient({
      baseUrl: s.baseUrl,
      tokenUrl: s.tokenUrl,
      consumerKey: s.consumerKey,
      consumerSecret: s.consumerSecret,
      tin: s.pin,
      bhfId: s.branch,
      deviceSerial: s.deviceSerial,
      cmcKey,
      timeoutMs: s.timeoutMs,
    });
  }
}
