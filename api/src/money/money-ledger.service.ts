import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { formatMoney, MPESA_MAX_AMOUNT_KES } from '@spc/shared-contracts';
import type { Actor } from '../common/principal';
import {
  MoneyLedgerRepository,
  type Inserted,
  type MoneyEntryRecord,
  type NewMoneyEntry,
} from './money-ledger.repository';
import { MoneyPayersRepository } from './money-payers.repository';
import type {
  MoneyEntry,
  MoneyEntryState,
  MoneyInKind,
  MoneyOutKind,
} from './schemas/money-entry.schema';

/** The most one M-Pesa transaction can carry; a paybill amount above it is not believed. */
export const MPESA_CEILING_KES = MPESA_MAX_AMOUNT_KES;
/** The most any one entry may hold (cash at the desk included); beyond it an amount is absurd. */
export const MONEY_CEILING_KES = 100_000_000;

/** Why an amount cannot be money on the books (not whole shillings, not positive, absurd), or null. */
export function badAmount(amount: number, ceiling = MONEY_CEILING_KES): string | null {
  if (!Number.isFinite(amount) || !Number.isInteger(amount))
    return `KES ${String(amount)} is not a whole number of shillings`;
  if (amount <= 0) return 'The amount must be at least KES 1';
  if (amount > ceiling)
    return `KES ${amount.toLocaleString('en-US')} is above the ceiling of ${formatMoney(ceiling)} for one payment`;
  return null;
}

/** How a payback is asked for: by hand (cash or M-Pesa with its reference) or sent by Daraja. */
export interface PaybackRequest {
  method: 'Cash' | 'Mpesa';
  send: boolean;
  reference: string;
}

/** One outgoing entry to write: how much of which incoming entry, and how it goes back. */
export interface PaybackPart {
  of: MoneyEntryRecord;
  amount: number;
  kind: MoneyOutKind;
  send: boolean;
}

/** An entry as the back office sees it; a customer's view leaves out who and the numbers. */
export interface MoneyEntryView {
  id: string;
  direction: 'in' | 'out';
  kind: string;
  amount: number;
  code: string | null;
  reference: string;
  at: string;
  state: string;
  payer: string | null;
  by: { fullName: string; role: string } | null;
  of: string | null;
  returned: number;
  split: { deposit: number; balance: number; excess: number } | null;
}

const actorFields = (actor: Actor) => ({
  byId: actor.id,
  byName: actor.fullName,
  byRole: actor.role,
});

/**
 * The money ledger (issue 38): every shilling in or out of the shop is one entry. Incoming M-Pesa
 * entries hold their code under a unique index, so one code is one entry across the prompt, the
 * paybill, the desk and a booking's deposit and balance; an order counts an entry only once it
 * credited it (`OrderCredits`), and money goes back only as outgoing entries against the incoming
 * ones, capped by what they brought and sent to the number that paid.
 */
@Injectable()
export class MoneyLedgerService {
  constructor(
    private readonly ledger: MoneyLedgerRepository,
    private readonly payers: MoneyPayersRepository,
  ) {}

  /** Forgets the numbers of erased payers whose paybacks have all been sent (issue 39). */
  forgetSettledPayers(): Promise<number> {
    return this.payers.forgetSettledPayers();
  }

  /** A new incoming entry's id: its code's where it has one, so a replay finds it. */
  static inId(kind: MoneyInKind, code: string | null, ref?: string): string {
    if (kind === 'mpesa-express') return `stk:${ref}`;
    if (kind === 'paybill') return `c2b:${code}`;
    return `${kind}:${code ?? new Types.ObjectId().toHexString()}`;
  }

  /** Writes an incoming entry (once per id; the code once across every entry). */
  recordIn(
    actor: Actor,
    entry: Omit<NewMoneyEntry, 'direction' | 'byId' | 'byName' | 'byRole'>,
  ): Promise<Inserted> {
    const bad = badAmount(entry.amount);
    if (bad) throw new BadRequestException(bad);
    return this.ledger.insert({
      ...entry,
      direction: 'in',
      ...actorFields(actor),
      claimedAt: entry.state === 'claimed' ? new Date() : null,
    });
  }

  findById(id: string): Promise<MoneyEntryRecord | null> {
    return this.ledger.findById(id);
  }

  findByCode(code: string): Promise<MoneyEntryRecord | null> {
    return this.ledger.findByCode(code);
  }

  findByIds(ids: string[]): Promise<MoneyEntryRecord[]> {
    return this.ledger.findByIds(ids);
  }

  ofOrder(orderId: string): Promise<MoneyEntryRecord[]> {
    return this.ledger.ofOrder(orderId);
  }

  between(direction: 'in' | 'out', from: Date, to: Date): Promise<MoneyEntryRecord[]> {
    return this.ledger.between(direction, from, to);
  }

  claim(id: string, order: { orderId: string; purchaseNumber: string }, actor: Actor) {
    return this.ledger.claim(id, order, actor);
  }

  credited(id: string, orderId: string, split: MoneyEntry['split']): Promise<boolean> {
    return this.ledger.credited(id, orderId, split);
  }

  /**
   * A claim its order refused: money M-Pesa sent on its own (paybill, a prompt) stays in the
   * ledger with no order (its code kept, to be assigned or given back); a desk entry goes away.
   */
  unclaim(
    entry: Pick<MoneyEntryRecord, '_id' | 'kind' | 'purchaseNumber'>,
    claimedAt?: Date | null,
  ): Promise<void> {
    const received = entry.kind === 'paybill' || entry.kind === 'mpesa-express';
    return this.ledger.unclaim(entry, received ? 'open' : 'gone', claimedAt);
  }

  /** A claim of this order's taken up again (a resumed gate sale): see the repository's. */
  reclaim(id: string, orderId: string): Promise<MoneyEntryRecord | null> {
    return this.ledger.reclaim(id, orderId);
  }

  /** Orders money from this payer's number (as M-Pesa named it) was credited to. */
  ordersPaidBy(payer: string): Promise<string[]> {
    return this.ledger.ordersPaidBy(payer);
  }

  /** Credited entries of a kind paid beyond their order's total (an excess to give back). */
  withExcess(kind: 'mpesa-express'): Promise<MoneyEntryRecord[]> {
    return this.ledger.withExcess(kind);
  }

  /** Open entries of a kind: money no order took (a prompt's whose order refused it). */
  openOfKind(kind: 'mpesa-express'): Promise<MoneyEntryRecord[]> {
    return this.ledger.openOfKind(kind);
  }

  /**
   * An M-Pesa Express payment received without its receipt that a code of this amount may be
   * (paid by `payer` within a week, or, with no payer known, within 15 minutes of `at`): the
   * shop cannot tell such a code from that payment, so it is not taken on its own.
   */
  async receiptlessTwin(
    amount: number,
    at: Date,
    payer?: string,
  ): Promise<MoneyEntryRecord | null> {
    const window = payer ? 7 * 24 * 3600_000 : 15 * 60_000;
    const [twin] = await this.ledger.codelessPrompts(
      amount,
      new Date(at.getTime() - window),
      new Date(at.getTime() + window),
      payer,
    );
    return twin ?? null;
  }

  /** An inbox entry credited to an invoice (issue 44); null when it is not open (or confirmed). */
  creditToInvoice(id: string, invoice: { invoiceId: string; number: string }) {
    return this.ledger.creditToInvoice(id, invoice);
  }

  invoiceCounted(id: string, invoiceId: string, split: MoneyEntry['split']): Promise<void> {
    return this.ledger.invoiceCounted(id, invoiceId, split);
  }

  uncountedForInvoices(before: Date): Promise<MoneyEntryRecord[]> {
    return this.ledger.uncountedForInvoices(before);
  }

  removeUncounted(id: string, invoiceId: string): Promise<boolean> {
    return this.ledger.removeUncounted(id, invoiceId);
  }

  unfinished(before: Date): Promise<MoneyEntryRecord[]> {
    return this.ledger.unfinished(before);
  }

  update(id: string, guard: Record<string, unknown>, set: Partial<MoneyEntry>): Promise<boolean> {
    return this.ledger.update(id, guard, set);
  }

  toSend(): Promise<MoneyEntryRecord[]> {
    return this.ledger.toSend();
  }

  /**
   * How `amount` goes back from these incoming entries (those of an order, or one inbox payment):
   * the whole of what they can still give back, entry by entry. Cash goes back as cash. M-Pesa sent
   * by Daraja goes back by a reversal of its code when the whole entry goes back, else by B2C to
   * the number that paid, never another; a payment without a confirmed payer's number (typed at the
   * desk, or a paybill payment M-Pesa's status query did not check) goes back only by reversal or
   * by hand. 400 naming what is wrong otherwise.
   */
  planPayback(entries: MoneyEntryRecord[], amount: number, request: PaybackRequest): PaybackPart[] {
    const open = entries.filter((e) => e.direction === 'in' && e.returnable > 0);
    const returnable = open.reduce((n, e) => n + e.returnable, 0);
    if (amount !== returnable)
      throw new BadRequestException(
        `The refund must be the amount received and not yet refunded, ${formatMoney(returnable)}`,
      );
    return open.map((e): PaybackPart => {
      if (e.kind === 'cash' || request.method === 'Cash')
        return { of: e, amount: e.returnable, kind: 'cash', send: false };
      if (!request.send) return { of: e, amount: e.returnable, kind: 'mpesa-by-hand', send: false };
      if (e.returnable === e.amount && e.code)
        return { of: e, amount: e.returnable, kind: 'reversal', send: true };
      if (e.payer && (e.kind === 'mpesa-express' || e.verified))
        return { of: e, amount: e.returnable, kind: 'b2c', send: true };
      throw new BadRequestException(
        `${formatMoney(e.returnable)} of payment ${e.code ?? e.reference} can go back only by a reversal of the whole payment or by hand: M-Pesa has not confirmed who paid it`,
      );
    });
  }

  /**
   * Takes each part from its incoming entry as one outgoing entry (`claiming` until `finishOut`):
   * all or nothing, 409 when another payback took any of it first. Answers the outgoing ids.
   */
  async takeOut(
    actor: Actor,
    parts: PaybackPart[],
    purpose: 'refund' | 'excess' | 'inbox',
    reference = '',
    ids: string[] = [],
  ): Promise<string[]> {
    const taken: { inId: string; outId: string }[] = [];
    for (const [i, p] of parts.entries()) {
      const outId = ids[i] ?? `out:${new Types.ObjectId().toHexString()}`;
      const written = await this.ledger.insert({
        _id: outId,
        direction: 'out',
        kind: p.kind,
        amount: p.amount,
        orderId: p.of.orderId,
        purchaseNumber: p.of.purchaseNumber,
        payer: p.kind === 'b2c' ? p.of.payer : null,
        state: 'claiming',
        of: p.of._id,
        purpose,
        send: p.send,
        reference: p.send ? '' : reference,
        at: new Date(),
        claimedAt: new Date(),
        ...actorFields(actor),
      });
      const ok =
        written.state === 'new' &&
        (await this.ledger.takeReturn(
          p.of._id,
          outId,
          p.amount,
          returnableFrom(p.of.state),
          p.of.orderId ?? null,
        ));
      if (!ok) {
        if (written.state === 'new') await this.ledger.remove(outId, 'claiming');
        await this.abandonOut(taken.map((t) => t.outId));
        throw new ConflictException({
          message: 'This money is being refunded already: reload to see the refund',
          code: 'CONFLICT',
        });
      }
      taken.push({ inId: p.of._id, outId });
    }
    return taken.map((t) => t.outId);
  }

  /** True when the outgoing entry took its share of its incoming entry (a crash after it). */
  async outTaken(out: MoneyEntryRecord): Promise<boolean> {
    const of = out.of ? await this.ledger.findById(out.of) : null;
    return !!of?.returns.some((r) => r.out === out._id);
  }

  /** The outgoing entries count: their step happened. */
  async finishOut(ids: string[]): Promise<void> {
    for (const id of ids) await this.ledger.setState(id, 'claiming', 'recorded');
  }

  /** The outgoing entries' step did not happen: what they took goes back, and they go. */
  async abandonOut(ids: string[]): Promise<void> {
    for (const id of ids) {
      const out = await this.ledger.findById(id);
      if (!out || out.state !== 'claiming') continue;
      if (out.of) await this.ledger.untakeReturn(out.of, id);
      await this.ledger.remove(id, 'claiming');
    }
  }

  view(e: MoneyEntryRecord): MoneyEntryView {
    return {
      id: e._id,
      direction: e.direction,
      kind: e.kind,
      amount: e.amount,
      code: e.code ?? null,
      reference: e.reference ?? '',
      at: new Date(e.at).toISOString(),
      state: e.state,
      payer: e.payer ?? null,
      by: e.byName ? { fullName: e.byName, role: e.byRole } : null,
      of: e.of ?? null,
      returned: e.returned ?? 0,
      split: e.split ?? null,
    };
  }
}

/**
 * The states an incoming entry read as `state` may be taken back from: a claim its order took may
 * be marked credited meanwhile (the credit's last step), which is the same money on the same order.
 */
function returnableFrom(state: MoneyEntryState): MoneyEntryState[] {
  return state === 'claimed' ? ['claimed', 'credited'] : [state];
}
