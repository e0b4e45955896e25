import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  type OnModuleInit,
} from '@nestjs/common';
import {
  ETIMS_CU_INVOICE_NUMBER,
  ETIMS_OFFICE_LIMITS as L,
  ETIMS_OFFICE_MESSAGES as M,
  ETIMS_SUMMARY_CSV_HEADER,
  ETIMS_TAX_TYPES,
  toCsv,
  type CsvValue,
  type EtimsDocumentListResponse,
  type EtimsDocumentView,
  type EtimsListState,
  type EtimsSignatureView,
  type EtimsSummaryDay,
  type EtimsSummaryFigures,
  type EtimsSummaryResponse,
  type EtimsTaxType,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import { addDays, shopDay, startOfShopDay } from '../common/shop-clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { EtimsDocument, EtimsState } from './etims-documents.repository';
import { EtimsOfficeRepository, type EnteredEtimsSignature } from './etims-office.repository';
import { EtimsQueue } from './etims-queue.service';
import { oscuTimestamp, parseOscuTimestamp, receiptVerificationUrl } from './oscu-client';

/** What a list state asks of the stored states; none: everything KRA has not signed yet. */
const STATES_OF: Record<EtimsListState | 'waiting', EtimsState[]> = {
  failed: ['failed'],
  pending: ['pending'],
  queued: ['queued', 'sending'],
  signed: ['signed'],
  waiting: ['failed', 'pending', 'queued', 'sending'],
};

/** Five minutes for a clerk's clock and KRA's to disagree. */
const CLOCK_SLACK_MS = 5 * 60_000;

export interface EtimsListQuery {
  state?: EtimsListState;
  from?: string;
  to?: string;
  page?: number;
  limit?: number;
}

export interface EtimsResendChanges {
  buyerPin?: string;
  buyerName?: string;
}

export interface EtimsSignatureEntry {
  cuInvoiceNumber: string;
  rcptSign: string;
  signedAt: string;
  intrlData?: string;
  totRcptNo?: number;
}

const cents = (kes: number | undefined) => Math.round((kes ?? 0) * 100);

/**
 * The back office's eTIMS work (issue 45): the queue of documents KRA has not signed, with KRA's
 * words; a clerk's resend (a buyer's PIN or name fixed) and a signature copied by hand from KRA's
 * portal when KRA answered a number it had without one; the owner's daily summary and its CSV.
 * Sending stays the queue's (EtimsQueue): this asks it to resend and never sends itself.
 */
@Injectable()
export class EtimsOffice implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: EtimsQueue,
    private readonly documents: EtimsOfficeRepository,
    private readonly audit: AuditService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.queue.enabled) await this.documents.ensureIndexes();
  }

  /** A page of documents, newest tax point first; empty (and `enabled` false) with eTIMS off. */
  async list(query: EtimsListQuery): Promise<EtimsDocumentListResponse> {
    const { page, limit, skip } = pageRequest(query, L.pageSize);
    if (!this.queue.enabled) return { enabled: false, documents: [], total: 0, page, pages: 0 };
    const range = daysRange(query.from, query.to);
    const { documents, total } = await this.documents.page(
      STATES_OF[query.state ?? 'waiting'],
      range,
      skip,
      limit,
    );
    return {
      enabled: true,
      documents: documents.map(documentView),
      total,
      page,
      pages: totalPages(total, limit),
    };
  }

  /**
   * Sends a failed or pending document to KRA again under its number, with the buyer's PIN or
   * name changed when given, or the buyer removed (an empty PIN: KRA does not know it and the
   * buyer has no other); a failed one is first rebuilt by its source's owner from its data as
   * it is now (a product's classification set since), and is a 400 with why while still unfixed. A signed one, one on its way, or a change to a pending one (KRA has
   * that number's content already) is a 409; an unknown one a 404. Audited.
   */
  async resend(
    actor: Principal,
    source: string,
    changes: EtimsResendChanges,
  ): Promise<EtimsDocumentView> {
    const doc = await this.existing(source);
    const changing = changes.buyerPin != null || changes.buyerName != null;
    if (changing && doc.state === 'pending')
      throw new ConflictException(
        `KRA has ${doc.trdInvcNo} (eTIMS ${doc.invcNo}) already and will not take other content under its number: resend it as it is, or copy its signature from KRA’s portal`,
      );
    const buyer = changing ? buyerAfter(doc, changes) : undefined;
    const resent = await this.queue.resendRebuilt(source, buyer !== undefined ? { buyer } : {});
    const what =
      buyer === null
        ? ' with the buyer removed (their PIN taken off: a sale to no one named)'
        : withChanged(changes, doc.input.buyer?.tin ?? null);
    await this.audit.record(
      actor,
      'etims.resend',
      `${actor.fullName} resent ${doc.trdInvcNo} (eTIMS ${doc.invcNo}) to KRA${what}; KRA had answered ${doc.lastCode ?? 'nothing'}`,
      { type: 'etims-document', id: source, label: doc.trdInvcNo },
    );
    return documentView(resent);
  }

  /**
   * Saves the signature a clerk copied from KRA's portal for a document KRA answered as a number
   * it had already, without its signature (pending). Anything but pending is a 409. Audited.
   */
  async signByHand(
    actor: Principal,
    source: string,
    entry: EtimsSignatureEntry,
  ): Promise<EtimsDocumentView> {
    const doc = await this.existing(source);
    const settings = this.config.etims!;
    if (doc.state !== 'pending')
      throw new ConflictException(
        doc.state === 'signed'
          ? `${doc.trdInvcNo} is signed already (eTIMS ${doc.invcNo})`
          : `${M.notPending}: ${doc.trdInvcNo} is ${doc.state}`,
      );
    const match = ETIMS_CU_INVOICE_NUMBER.exec(entry.cuInvoiceNumber);
    if (!match) throw new BadRequestException(M.cuInvoiceNumber);
    const signedAt = new Date(entry.signedAt);
    const now = new Date();
    if (signedAt.getTime() > now.getTime() + CLOCK_SLACK_MS)
      throw new BadRequestException(M.signedAtFuture);
    if (signedAt.getTime() < doc.createdAt.getTime() - CLOCK_SLACK_MS)
      throw new BadRequestException(M.signedAtBefore);
    const signature: EnteredEtimsSignature = {
      invcNo: doc.invcNo,
      rcptNo: Number(match[2]),
      totRcptNo: entry.totRcptNo ?? null,
      intrlData: entry.intrlData ?? null,
      rcptSign: entry.rcptSign,
      signedAt: oscuTimestamp(signedAt),
      sdcId: match[1]!,
      mrcNo: null,
      qrUrl: receiptVerificationUrl(
        settings.portalUrl,
        settings.pin,
        settings.branch,
        entry.rcptSign,
      ),
      enteredBy: { id: actor.id, name: actor.fullName },
      enteredAt: now,
    };
    const saved = await this.documents.signByHand(
      source,
      signature,
      signedAt,
      `Signature copied from KRA’s portal by ${actor.fullName}`,
    );
    if (!saved)
      throw new ConflictException(
        `${doc.trdInvcNo} changed meanwhile: look again (${M.notPending})`,
      );
    // Its credit notes set aside until it was signed go now.
    await this.queue.releaseCredits(source);
    await this.audit.record(
      actor,
      'etims.signature',
      `${actor.fullName} copied the eTIMS signature of ${doc.trdInvcNo} (eTIMS ${doc.invcNo}, ${entry.cuInvoiceNumber}) from KRA's portal`,
      { type: 'etims-document', id: source, label: doc.trdInvcNo },
    );
    return documentView((await this.queue.find(source))!);
  }

  /**
   * Per shop day (Africa/Nairobi) of the documents' tax point: signed, pending, failed and waiting
   * counts, and the signed documents' taxable amounts and tax by type A–E (credit notes subtract).
   */
  async summary(from: string, to: string): Promise<EtimsSummaryResponse> {
    const days = dayList(from, to);
    const byDay = new Map(days.map((date) => [date, emptyFigures()]));
    const totals = emptyFigures();
    if (this.queue.enabled) {
      const rows = await this.documents.summaryRows(
        startOfShopDay(from),
        startOfShopDay(addDays(to, 1)),
      );
      for (const row of rows) {
        const day = byDay.get(shopDay(new Date(row.input.at)));
        if (!day) continue;
        for (const figures of [day, totals]) count(figures, row);
      }
    }
    return {
      enabled: this.queue.enabled,
      from,
      to,
      days: [...byDay.entries()].map(([date, f]) => ({ date, ...inKes(f) })),
      totals: inKes(totals),
    };
  }

  /** The summary as CSV (a row per day, then the totals); the export is audited. */
  async summaryCsv(
    actor: Principal,
    from: string,
    to: string,
  ): Promise<{ csv: string; fileName: string }> {
    const summary = await this.summary(from, to);
    const row = (label: string, f: EtimsSummaryFigures): CsvValue[] => [
      label,
      f.signed,
      f.creditNotes,
      f.pending,
      f.failed,
      f.waiting,
      ...ETIMS_TAX_TYPES.flatMap((t) => [f.taxByType[t].taxable, f.taxByType[t].tax]),
      f.total,
    ];
    const csv = toCsv([
      [...ETIMS_SUMMARY_CSV_HEADER],
      ...summary.days.map((d: EtimsSummaryDay) => row(d.date, d)),
      row('Total', summary.totals),
    ]);
    const fileName = `etims-summary-${from}-to-${to}.csv`;
    await this.audit.recordExport(
      actor,
      'etims.export',
      fileName,
      `the daily eTIMS summary as CSV (from ${from} to ${to}; ${summary.totals.signed} signed, ${summary.totals.pending} pending, ${summary.totals.failed} failed)`,
    );
    return { csv, fileName };
  }

  private async existing(source: string): Promise<EtimsDocument> {
    if (!this.queue.enabled)
      throw new ConflictException('eTIMS is off (ETIMS_ENV=off): nothing is sent to KRA');
    const doc = await this.queue.find(source);
    if (!doc) throw new NotFoundException(`No eTIMS document ${source}`);
    return doc;
  }
}

/**
 * The buyer a clerk's changes make of a document's: null when the PIN is emptied (the buyer
 * removed: a sale to no one named), else the PIN and name given over the document's. A 400 for a
 * name without a PIN, or a removal of a buyer it does not name.
 */
function buyerAfter(
  doc: EtimsDocument,
  changes: EtimsResendChanges,
): EtimsDocument['input']['buyer'] {
  const before = doc.input.buyer ?? null;
  if (changes.buyerPin === '') {
    if (changes.buyerName != null) throw new BadRequestException(M.buyerNameWithoutBuyer);
    if (!before?.tin) throw new BadRequestException(M.noBuyerToRemove);
    // A credit sale (02, an invoice on account) names who owes it.
    if (doc.input.paymentType === '02') throw new BadRequestException(M.creditSaleNeedsBuyer);
    return null;
  }
  const tin = changes.buyerPin ?? before?.tin;
  if (!tin) throw new BadRequestException(M.buyerNameWithoutPin);
  return {
    tin,
    name: changes.buyerName ?? before?.name ?? null,
    // A PIN starting with A is an individual's: their PIN and name leave with an erasure.
    person: tin.startsWith('A') || (before?.person ?? false),
  };
}

/**
 * What an audit says a resend changed: a business's PIN before and after (PINs are not secret), an
 * individual's never (the audit outlives their erasure), never a name.
 */
function withChanged(changes: EtimsResendChanges, pinBefore: string | null): string {
  const pinMoved = changes.buyerPin != null && changes.buyerPin !== pinBefore;
  const what = [
    changes.buyerPin != null &&
      `the buyer's PIN${pinMoved ? ` (${pinInAudit(pinBefore)} → ${pinInAudit(changes.buyerPin!)})` : ''}`,
    changes.buyerName != null && "the buyer's name",
  ].filter(Boolean);
  return what.length ? ` with ${what.join(' and ')} changed` : '';
}

/** The shop days from `from` to `to`, both included: at most the summary's limit. */
function dayList(from: string, to: string): string[] {
  if (from > to) throw new BadRequestException('from must be on or before to');
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    days.push(day);
    if (days.length > L.summaryDays)
      throw new BadRequestException(`A summary covers at most ${L.summaryDays} days`);
  }
  return days;
}

function daysRange(from?: string, to?: string): { since?: Date; before?: Date } {
  if (from && to && from > to) throw new BadRequestException('from must be on or before to');
  return {
    since: from ? startOfShopDay(from) : undefined,
    before: to ? startOfShopDay(addDays(to, 1)) : undefined,
  };
}

/** Figures in cents while they are summed. */
type Figures = Omit<EtimsSummaryFigures, 'taxByType' | 'total'> & {
  taxable: Record<EtimsTaxType, number>;
  tax: Record<EtimsTaxType, number>;
  total: number;
};

function emptyFigures(): Figures {
  const zero = () => ({ A: 0, B: 0, C: 0, D: 0, E: 0 });
  return {
    signed: 0,
    creditNotes: 0,
    pending: 0,
    failed: 0,
    waiting: 0,
    taxable: zero(),
    tax: zero(),
    total: 0,
  };
}

function count(f: Figures, row: Awaited<ReturnType<EtimsOfficeRepository['summaryRows']>>[number]) {
  if (row.state === 'pending') f.pending++;
  else if (row.state === 'failed') f.failed++;
  else if (row.state === 'queued' || row.state === 'sending') f.waiting++;
  if (row.state !== 'signed') return;
  f.signed++;
  const sign = row.kind === 'credit-note' ? -1 : 1;
  if (row.kind === 'credit-note') f.creditNotes++;
  for (const t of ETIMS_TAX_TYPES) {
    f.taxable[t] += sign * cents(row.request[`taxblAmt${t}`]);
    f.tax[t] += sign * cents(row.request[`taxAmt${t}`]);
  }
  f.total += sign * cents(row.request.totAmt);
}

function inKes(f: Figures): EtimsSummaryFigures {
  const kes = (c: number) => c / 100;
  return {
    signed: f.signed,
    creditNotes: f.creditNotes,
    pending: f.pending,
    failed: f.failed,
    waiting: f.waiting,
    taxByType: Object.fromEntries(
      ETIMS_TAX_TYPES.map((t) => [t, { taxable: kes(f.taxable[t]), tax: kes(f.tax[t]) }]),
    ) as EtimsSummaryFigures['taxByType'],
    total: kes(f.total),
  };
}

function signatureView(doc: EtimsDocument): EtimsSignatureView | null {
  const s = doc.signature as
    (EtimsDocument['signature'] & { enteredBy?: { name: string } | null }) | null;
  if (!s) return null;
  const signedAt = parseOscuTimestamp(s.signedAt) ?? doc.signedAt ?? doc.updatedAt;
  return {
    // The SCU ID is unknown when neither the answer nor a kept initialisation gave it.
    cuInvoiceNumber: s.sdcId ? `${s.sdcId}/${s.rcptNo}` : String(s.rcptNo),
    sdcId: s.sdcId ?? null,
    mrcNo: s.mrcNo ?? null,
    rcptNo: s.rcptNo,
    totRcptNo: s.totRcptNo ?? null,
    intrlData: s.intrlData || null,
    rcptSign: s.rcptSign,
    signedAt: signedAt.toISOString(),
    qrUrl: s.qrUrl,
    enteredBy: s.enteredBy?.name ?? null,
  };
}

/** A document as the back office reads it: never its request's internals. */
export function documentView(doc: EtimsDocument): EtimsDocumentView {
  const buyer = doc.input.buyer;
  return {
    source: doc._id,
    kind: doc.kind,
    trdInvcNo: doc.trdInvcNo,
    invcNo: doc.invcNo,
    state: doc.state,
    attempts: doc.attempts,
    lastCode: doc.lastCode,
    lastMessage: doc.lastMessage,
    at: new Date(doc.input.at).toISOString(),
    queuedAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
    nextTryAt: doc.state === 'queued' ? doc.nextTryAt.toISOString() : null,
    total: doc.request.totAmt,
    buyer: buyer?.tin ? { pin: buyer.tin, name: buyer.name ?? null } : null,
    orderId: doc.orderId,
    original: doc.original,
    waitsFor: doc.state === 'queued' ? (doc.waitsFor?.trdInvcNo ?? null) : null,
    signature: signatureView(doc),
  };
}

/**
 * A buyer's PIN as the audit trail says it: a body's in full (a public register's, not a secret);
 * an individual's (`A…`) is theirs, and an erasure does not reach the trail's words, so not its digits.
 */
function pinInAudit(pin: string | null): string {
  if (!pin) return 'none';
  return pin.startsWith('A') ? "an individual's PIN" : pin;
}
