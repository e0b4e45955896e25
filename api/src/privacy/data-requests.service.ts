import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  GoneException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { toKenyanMsisdn } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal, SystemActor } from '../common/principal';
import { QuotaService, type WindowLimit } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import { SmsBudgets, smsSender, type SmsBudgetAnswer } from '../sms/sms-budgets';
import type { SmsGateway } from '../sms/sms-gateway';
import { SMS_GATEWAY } from '../sms/sms.service';
import { ANONYMOUS_NAME } from '../common/personal-data';
import { Erasure } from './erasure';
import { DataRequestsRepository, type DataRequestDoc } from './data-requests.repository';
import { OrdersPersonalData } from '../orders/orders-personal-data';
import { DataExportBuilder, type DataExport } from './data-export';
import { PrivacySettingsService } from './privacy-settings.service';

export type DataRequestKind = 'export' | 'erasure';
/** `unconfirmed`: the SMS code is awaited; `open`: in the admin's queue; `answered`: done. */
export type DataRequestStatus = 'unconfirmed' | 'open' | 'answered';

export interface DataRequestView {
  _id: string;
  kind: DataRequestKind;
  purchaseNumber: string;
  phone: string;
  status: DataRequestStatus;
  createdAt: string;
  confirmedAt: string | null;
  dueAt: string | null;
  overdue: boolean;
  answeredAt: string | null;
  answer: 'export' | 'anonymised' | null;
  answeredBy: string | null;
}

const CODE_MINUTES = 15;
const MAX_ATTEMPTS = 5;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Codes asked for one phone a shop day, whether or not the phone is an order's. */
const CODES_PER_PHONE: WindowLimit = { name: 'data-request-code', limit: 3, per: 'day' };
/** Requests from one client network a shop day, whether or not they name a guest order. */
export const DATA_REQUESTS_PER_NETWORK = 10;
const REQUESTS_PER_NETWORK: WindowLimit = {
  name: 'data-request-network',
  limit: DATA_REQUESTS_PER_NETWORK,
  per: 'day',
};
/** An unconfirmed request is forgotten this long after its code expired. */
const FORGET_UNCONFIRMED_MS = 24 * 60 * 60 * 1000;

/** Who the audit trail names for a guest's own steps (asking, confirming with the code). */
const GUEST_ACTOR: SystemActor = { id: 'guest', role: 'system', fullName: 'A guest (SMS code)' };

export const DATA_REQUEST_MESSAGES = {
  smsOff: 'Text messages are off at the shop: please ask by phone or e-mail instead.',
  notKenyan:
    'Codes go to Kenyan mobile numbers only (07… or 01…): please ask the shop by phone or e-mail instead.',
  tooMany: 'Too many codes for this phone today. Please try again tomorrow.',
  tooManyFromNetwork:
    'Too many data requests from your network today. Please try again tomorrow, or ask the shop by phone or e-mail.',
  smsUsedUp:
    "The shop's text messages for today are used up. Please try again tomorrow, or ask by phone or e-mail.",
  wrongCode: 'The code is not correct',
  expired: 'The code has expired or was tried too often: please ask again',
  notFound: 'No data request with this id',
  notOpen: 'This request is not confirmed yet',
  answered: 'This request was already answered',
  openOrders: (numbers: string[]) =>
    `These orders are still open: ${numbers.join(', ')}. Erase after they are completed or cancelled.`,
} as const;

/** A request as the audit trail names it: by its id, labelled with its order's number (no phone). */
function dataRequestTarget(id: string, purchaseNumber: string) {
  return { type: 'data-request', id, label: purchaseNumber };
}

/** An SMS budget's refusal of a code: 429 for the phone's or the network's, 503 for the shop's day. */
function budgetRefusal(budget: Extract<SmsBudgetAnswer, { granted: false }>) {
  if (budget.budget === 'day')
    return new ServiceUnavailableException(DATA_REQUEST_MESSAGES.smsUsedUp);
  return new TooManyRequestsException(
    budget.budget === 'recipient'
      ? DATA_REQUEST_MESSAGES.tooMany
      : DATA_REQUEST_MESSAGES.tooManyFromNetwork,
    budget.retryAfterSeconds,
  );
}

function hashCode(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code}`).digest('hex');
}

/**
 * Requests of people without an account: a purchase number and the phone it was given with,
 * proved by a code sent to that phone; once confirmed, the request waits in the admin's queue with
 * its due date, and is answered with the export of the guest's orders or their anonymisation.
 */
@Injectable()
export class DataRequestsService {
  private readonly logger = new Logger('DataRequests');

  constructor(
    private readonly requests: DataRequestsRepository,
    private readonly orders: OrdersPersonalData,
    @Inject(SMS_GATEWAY) private readonly gateway: SmsGateway | null,
    private readonly budgets: SmsBudgets,
    private readonly quota: QuotaService,
    private readonly settings: PrivacySettingsService,
    private readonly exports: DataExportBuilder,
    private readonly erasure: Erasure,
    private readonly audit: AuditService,
  ) {}

  /**
   * A guest asks: the same answer (a request id and when its code expires) whether or not the
   * purchase number is a guest order given with this phone, so the form tells nobody which phone
   * an order has. The code is texted only when they match; otherwise the request stored can never
   * be confirmed (its code is no 6 digits) and fails as a wrong code does. Both count alike, as one
   * code, against the codes a phone may ask for, the requests a network may make and the SMS
   * budgets (to the number typed, of the network, the shop's day), so no limit answers sooner for a
   * right phone than for a wrong one. The code goes straight to the gateway, in no outbox and no
   * log; only its hash is kept.
   */
  async create(
    input: { purchaseNumber: string; phoneNumber: string; kind: DataRequestKind },
    clientAddress: string,
  ): Promise<{ requestId: string; codeExpiresAt: string }> {
    if (!this.gateway) throw new ServiceUnavailableException(DATA_REQUEST_MESSAGES.smsOff);
    const phone = toKenyanMsisdn(input.phoneNumber);
    if (!phone) throw new BadRequestException(DATA_REQUEST_MESSAGES.notKenyan);
    const sender = smsSender(undefined, clientAddress);
    const asked = await this.quota.take([
      { limit: CODES_PER_PHONE, key: `phone:${phone}` },
      ...(sender ? [{ limit: REQUESTS_PER_NETWORK, key: sender }] : []),
    ]);
    if (!asked.granted)
      throw new TooManyRequestsException(
        asked.refused.limit === CODES_PER_PHONE
          ? DATA_REQUEST_MESSAGES.tooMany
          : DATA_REQUEST_MESSAGES.tooManyFromNetwork,
        asked.retryAfterSeconds,
      );
    const budget = await this.budgets.claim(phone, sender);
    if (!budget.granted) {
      await this.quota.giveBack(asked.ticket);
      throw budgetRefusal(budget);
    }

    const purchaseNumber = input.purchaseNumber.trim();
    const order = await this.orders.guestOrder(purchaseNumber);
    const matches = !!order && toKenyanMsisdn(order.phoneNumber) === phone;

    const id = randomUUID();
    // A mismatch gets a code nobody is told and no 6-digit answer can equal.
    const code = matches
      ? String(randomInt(0, 1_000_000)).padStart(6, '0')
      : randomBytes(16).toString('hex');
    const now = new Date();
    const codeExpiresAt = new Date(now.getTime() + CODE_MINUTES * 60_000);
    await this.requests.insert({
      _id: id,
      kind: input.kind,
      // A mismatch keeps neither the phone typed nor the number: they name nobody's order.
      purchaseNumber: matches ? purchaseNumber : '',
      phone: matches ? phone : '',
      codeHash: hashCode(id, code),
      codeExpiresAt,
      attempts: 0,
      status: 'unconfirmed',
      createdAt: now,
      confirmedAt: null,
      dueAt: null,
      answeredAt: null,
      answer: null,
      answeredBy: null,
      forgetAt: new Date(codeExpiresAt.getTime() + FORGET_UNCONFIRMED_MS),
    });
    // Sent after the answer, so that a right phone takes no longer to answer than a wrong one.
    if (matches)
      void this.sendCode({ id, kind: input.kind, purchaseNumber, phone, code }, [
        ...asked.ticket,
        ...budget.ticket,
      ]);
    return { requestId: id, codeExpiresAt: codeExpiresAt.toISOString() };
  }

  /**
   * Texts a request's code; the asking is audited once it went out. A failed send gives back what
   * the request took of the limits and budgets (the guest asks again): the code is gone with it.
   */
  private async sendCode(
    request: {
      id: string;
      kind: DataRequestKind;
      purchaseNumber: string;
      phone: string;
      code: string;
    },
    ticket: string[],
  ): Promise<void> {
    const sent = await this.gateway!.send(
      request.phone,
      `Your code for the data request about order ${request.purchaseNumber} is ${request.code}. It expires in ${CODE_MINUTES} minutes.`,
    ).catch(() => ({ ok: false }) as const);
    if (!sent.ok) {
      this.logger.warn(`The code of data request ${request.id} could not be sent by SMS`);
      await this.quota.giveBack(ticket).catch(() => undefined);
      return;
    }
    await this.audit.record(
      GUEST_ACTOR,
      'privacy.request.create',
      `A guest asked for ${request.kind === 'export' ? 'a copy' : 'the erasure'} of their data about order ${request.purchaseNumber}; the code was texted to the order's phone`,
      dataRequestTarget(request.id, request.purchaseNumber),
    );
  }

  /**
   * The guest gives the code. Whatever the request's state, a wrong code is refused; the answer
   * never holds the phone or the name of the admin who answered (whoever holds a request's id
   * learns nothing of whom it is about).
   */
  async confirm(id: string, code: string): Promise<DataRequestView> {
    const now = new Date();
    const given = (doc: DataRequestDoc) =>
      timingSafeEqual(Buffer.from(hashCode(id, code.trim())), Buffer.from(doc.codeHash));
    // One attempt counted per try, atomically, before the code is compared.
    const doc = await this.requests.countAttempt(id);
    if (!doc) {
      const existing = await this.requests.find(id);
      if (!existing) throw new NotFoundException(DATA_REQUEST_MESSAGES.notFound);
      // Confirmed already: the same code again answers its state; any other is wrong.
      if (existing.codeHash.length !== 64 || !given(existing))
        throw new BadRequestException(DATA_REQUEST_MESSAGES.wrongCode);
      return this.guestView(existing);
    }
    if (doc.attempts > MAX_ATTEMPTS || doc.codeExpiresAt <= now)
      throw new GoneException(DATA_REQUEST_MESSAGES.expired);
    if (!given(doc)) throw new BadRequestException(DATA_REQUEST_MESSAGES.wrongCode);
    const { requestDueDays } = await this.settings.get();
    const confirmed = await this.requests.confirm(
      id,
      now,
      new Date(now.getTime() + requestDueDays * DAY_MS),
    );
    if (confirmed)
      await this.audit.record(
        GUEST_ACTOR,
        'privacy.request.confirm',
        `A guest confirmed their data request about order ${confirmed.purchaseNumber} with the code; it is due by ${confirmed.dueAt!.toISOString().slice(0, 10)}`,
        dataRequestTarget(id, confirmed.purchaseNumber),
      );
    return this.guestView(confirmed ?? (await this.requests.find(id))!);
  }

  /** A request as its guest is answered: without the phone or the admin's name. */
  private guestView(d: DataRequestDoc): DataRequestView {
    return { ...this.view(d), phone: '', answeredBy: null };
  }

  /** The admin's queue: confirmed requests, the open ones first, soonest due first. */
  async queue(): Promise<DataRequestView[]> {
    return (await this.requests.queue(200)).map((d) => this.view(d));
  }

  async answerWithExport(actor: Principal, id: string): Promise<DataExport> {
    const request = await this.openRequest(id);
    const { subject } = await this.guest(request);
    const data = await this.exports.build(subject);
    await this.markAnswered(actor, request, 'export');
    return data;
  }

  async answerWithErasure(actor: Principal, id: string): Promise<DataRequestView> {
    const request = await this.openRequest(id);
    const { subject, orders } = await this.guest(request);
    this.erasure.refuseOpen(orders, DATA_REQUEST_MESSAGES.openOrders);
    // Erased first (every owner's step can be done again), then answered: a crash between the two
    // leaves the request open, to be answered again, never answered and not erased.
    await this.erasure.erase(subject, 'guest-request');
    return this.markAnswered(actor, request, 'anonymised');
  }

  private async openRequest(id: string): Promise<DataRequestDoc> {
    const request = await this.requests.find(id);
    if (!request) throw new NotFoundException(DATA_REQUEST_MESSAGES.notFound);
    if (request.status === 'unconfirmed')
      throw new ConflictException(DATA_REQUEST_MESSAGES.notOpen);
    if (request.status === 'answered') throw new ConflictException(DATA_REQUEST_MESSAGES.answered);
    return request;
  }

  /**
   * The guest of a request: every order without an account given with the request's phone, however
   * it was typed (found canonically), and the requests made with it.
   */
  private async guest(request: DataRequestDoc) {
    return this.erasure.subjectOfGuest(
      request.phone,
      await this.requests.idsOfPhone(request.phone),
    );
  }

  private async markAnswered(
    actor: Principal,
    request: DataRequestDoc,
    answer: 'export' | 'anonymised',
  ): Promise<DataRequestView> {
    const done = await this.requests.markAnswered(request._id, answer, actor.fullName);
    if (!done) throw new ConflictException(DATA_REQUEST_MESSAGES.answered);
    if (answer === 'anonymised') {
      // The erasure forgot the phone on every request made with it; this one too.
      await this.requests.forgetPhoneOf(request._id);
      done.phone = '';
    }
    await this.audit.record(
      actor,
      `privacy.request.${answer === 'export' ? 'export' : 'erase'}`,
      `${actor.fullName} answered the data request about order ${request.purchaseNumber} (${answer === 'export' ? 'data sent' : `contacts erased as ${ANONYMOUS_NAME}`})`,
      dataRequestTarget(request._id, request.purchaseNumber),
    );
    return this.view(done);
  }

  private view(d: DataRequestDoc): DataRequestView {
    return {
      _id: d._id,
      kind: d.kind,
      purchaseNumber: d.purchaseNumber,
      phone: d.phone,
      status: d.status,
      createdAt: d.createdAt.toISOString(),
      confirmedAt: d.confirmedAt?.toISOString() ?? null,
      dueAt: d.dueAt?.toISOString() ?? null,
      overdue: d.status === 'open' && !!d.dueAt && d.dueAt.getTime() < Date.now(),
      answeredAt: d.answeredAt?.toISOString() ?? null,
      answer: d.answer,
      answeredBy: d.answeredBy,
    };
  }

  /** The requests made with these phones (E.164), for the person's export. */
  async ofPhones(phones: string[]): Promise<DataRequestView[]> {
    if (!phones.length) return [];
    return (await this.requests.ofPhones(phones)).map((d) => this.view(d));
  }

  /** The requests made with these phones lose the number (an erasure). */
  async forgetPhones(phones: string[]): Promise<void> {
    await this.requests.forgetPhones(phones);
  }
}
