import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  GoneException,
  Inject,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { toKenyanMsisdn } from '@spc/shared-contracts';
import type { Connection, mongo } from 'mongoose';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { QuotaService, type WindowLimit } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import type { SmsGateway } from '../sms/sms-gateway';
import { SMS_GATEWAY } from '../sms/sms.service';
import { ANONYMOUS_NAME } from '../common/personal-data';
import { Erasure } from './erasure';
import { DataExportBuilder, type DataExport } from './data-export';
import { PrivacySettingsService } from './privacy-settings.service';

export type DataRequestKind = 'export' | 'erasure';
/** `unconfirmed`: the SMS code is awaited; `open`: in the admin's queue; `answered`: done. */
export type DataRequestStatus = 'unconfirmed' | 'open' | 'answered';

interface DataRequestDoc {
  _id: string;
  kind: DataRequestKind;
  purchaseNumber: string;
  /** +254…, as the code was sent. */
  phone: string;
  codeHash: string;
  codeExpiresAt: Date;
  attempts: number;
  status: DataRequestStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  dueAt: Date | null;
  answeredAt: Date | null;
  answer: 'export' | 'anonymised' | null;
  answeredBy: string | null;
}

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
const CODES_PER_PHONE: WindowLimit = { name: 'data-request-code', limit: 3, per: 'day' };
const COLLECTION = 'data_requests';

export const DATA_REQUEST_MESSAGES = {
  noSuchOrder:
    'No guest order has this purchase number and phone. With an account, use your profile instead.',
  smsOff: 'Text messages are off at the shop: please ask by phone or e-mail instead.',
  notSent: 'The code could not be sent by SMS. Please try again in a few minutes.',
  tooMany: 'Too many codes for this phone today. Please try again tomorrow.',
  wrongCode: 'The code is not correct',
  expired: 'The code has expired or was tried too often: please ask again',
  notFound: 'No data request with this id',
  notOpen: 'This request is not confirmed yet',
  answered: 'This request was already answered',
  openOrders: (numbers: string[]) =>
    `These orders are still open: ${numbers.join(', ')}. Erase after they are completed or cancelled.`,
} as const;

function hashCode(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code}`).digest('hex');
}

/**
 * Requests of people without an account: a purchase number and the phone it was given with,
 * proved by a code sent to that phone; once confirmed, the request waits in the admin's queue with
 * its due date, and is answered with the export of the guest's orders or their anonymisation.
 */
@Injectable()
export class DataRequestsService implements OnModuleInit {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(SMS_GATEWAY) private readonly gateway: SmsGateway | null,
    private readonly quota: QuotaService,
    private readonly settings: PrivacySettingsService,
    private readonly exports: DataExportBuilder,
    private readonly erasure: Erasure,
    private readonly audit: AuditService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.requests()
      .createIndex({ status: 1, dueAt: 1 })
      .catch(() => undefined);
  }

  async create(input: {
    purchaseNumber: string;
    phoneNumber: string;
    kind: DataRequestKind;
  }): Promise<{ requestId: string; codeExpiresAt: string }> {
    const phone = toKenyanMsisdn(input.phoneNumber);
    const order = phone
      ? await this.orders().findOne({
          purchaseNumber: input.purchaseNumber.trim(),
          placedBy: null,
        })
      : null;
    if (
      !order ||
      toKenyanMsisdn(String((order.guestInfo as { phoneNumber?: string }).phoneNumber ?? '')) !==
        phone
    )
      throw new NotFoundException(DATA_REQUEST_MESSAGES.noSuchOrder);
    if (!this.gateway) throw new ServiceUnavailableException(DATA_REQUEST_MESSAGES.smsOff);
    const claim = await this.quota.take([{ limit: CODES_PER_PHONE, key: `phone:${phone}` }]);
    if (!claim.granted)
      throw new TooManyRequestsException(DATA_REQUEST_MESSAGES.tooMany, claim.retryAfterSeconds);

    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = new Date();
    const codeExpiresAt = new Date(now.getTime() + CODE_MINUTES * 60_000);
    const sent = await this.gateway
      .send(
        phone!,
        `Your code for the data request about order ${String(order.purchaseNumber)} is ${code}. It expires in ${CODE_MINUTES} minutes.`,
      )
      .catch(() => ({ ok: false }) as const);
    if (!sent.ok) {
      await this.quota.giveBack(claim.ticket);
      throw new ServiceUnavailableException(DATA_REQUEST_MESSAGES.notSent);
    }
    await this.requests().insertOne({
      _id: id,
      kind: input.kind,
      purchaseNumber: String(order.purchaseNumber),
      phone: phone!,
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
    });
    return { requestId: id, codeExpiresAt: codeExpiresAt.toISOString() };
  }

  async confirm(id: string, code: string): Promise<DataRequestView> {
    const now = new Date();
    // One attempt counted per try, atomically, before the code is compared.
    const doc = await this.requests().findOneAndUpdate(
      { _id: id, status: 'unconfirmed' },
      { $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
    if (!doc) {
      const existing = await this.requests().findOne({ _id: id });
      if (!existing) throw new NotFoundException(DATA_REQUEST_MESSAGES.notFound);
      return this.view(existing);
    }
    if (doc.attempts > MAX_ATTEMPTS || doc.codeExpiresAt <= now)
      throw new GoneException(DATA_REQUEST_MESSAGES.expired);
    const given = Buffer.from(hashCode(id, code.trim()));
    if (!timingSafeEqual(given, Buffer.from(doc.codeHash)))
      throw new BadRequestException(DATA_REQUEST_MESSAGES.wrongCode);
    const { requestDueDays } = await this.settings.get();
    const confirmed = await this.requests().findOneAndUpdate(
      { _id: id, status: 'unconfirmed' },
      {
        $set: {
          status: 'open',
          confirmedAt: now,
          dueAt: new Date(now.getTime() + requestDueDays * DAY_MS),
          codeHash: '',
        },
      },
      { returnDocument: 'after' },
    );
    return this.view(confirmed ?? (await this.requests().findOne({ _id: id }))!);
  }

  /** The admin's queue: confirmed requests, the open ones first, soonest due first. */
  async queue(): Promise<DataRequestView[]> {
    const docs = await this.requests()
      .find({ status: { $in: ['open', 'answered'] } })
      .sort({ status: -1, dueAt: 1 })
      .limit(200)
      .toArray();
    return docs.map((d) => this.view(d));
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
    const request = await this.requests().findOne({ _id: id });
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
    const requests = await this.requests()
      .find({ phone: request.phone }, { projection: { _id: 1 } })
      .toArray();
    return this.erasure.subjectOfGuest(
      request.phone,
      requests.map((r) => r._id),
    );
  }

  private async markAnswered(
    actor: Principal,
    request: DataRequestDoc,
    answer: 'export' | 'anonymised',
  ): Promise<DataRequestView> {
    const done = await this.requests().findOneAndUpdate(
      { _id: request._id, status: 'open' },
      { $set: { status: 'answered', answeredAt: new Date(), answer, answeredBy: actor.fullName } },
      { returnDocument: 'after' },
    );
    if (!done) throw new ConflictException(DATA_REQUEST_MESSAGES.answered);
    if (answer === 'anonymised') {
      // The erasure forgot the phone on every request made with it; this one too.
      await this.requests().updateOne({ _id: request._id }, { $set: { phone: '' } });
      done.phone = '';
    }
    await this.audit.record(
      actor,
      `privacy.request.${answer === 'export' ? 'export' : 'erase'}`,
      `${actor.fullName} answered the data request about order ${request.purchaseNumber} (${answer === 'export' ? 'data sent' : `contacts erased as ${ANONYMOUS_NAME}`})`,
      { type: 'order', id: request._id, label: request.purchaseNumber },
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
    const docs = await this.requests()
      .find({ phone: { $in: phones } })
      .sort({ createdAt: 1 })
      .toArray();
    return docs.map((d) => this.view(d));
  }

  /** The requests made with these phones lose the number (an erasure). */
  async forgetPhones(phones: string[]): Promise<void> {
    if (phones.length)
      await this.requests().updateMany({ phone: { $in: phones } }, { $set: { phone: '' } });
  }

  private requests(): mongo.Collection<DataRequestDoc> {
    return this.connection.db!.collection<DataRequestDoc>(COLLECTION);
  }

  private orders(): mongo.Collection<Record<string, unknown>> {
    return this.connection.db!.collection('orders');
  }
}
