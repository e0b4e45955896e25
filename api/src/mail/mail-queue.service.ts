import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { canonicalEmail } from '../common/identifiers';
import { Scheduler, whileRenewing } from '../common/scheduler/scheduler';
import type { MailFor, MailTemplate } from './mail-log';
import { MailLogRepository } from './mail-log.repository';
import { MailOutboxRepository, type MailParams, type QueuedMail } from './mail-outbox.repository';
import { MailService, type MailMessage } from './mail.service';

/**
 * How long one instance holds a message before another may take it: far longer than a send may
 * take (the transport gives up on a mail server silent for SMTP_SOCKET_TIMEOUT_MS, see MailService),
 * and renewed every RENEW_EVERY_MS while the message is made and sent, so a live sender never loses
 * it. A pending message whose instance died is sent by another after it; one marked `sending` is
 * given up instead (see MailQueue).
 */
const LEASE_MS = 5 * 60_000;
/** How often a message being made and sent has its lease renewed. */
const RENEW_EVERY_MS = 60_000;
/** Why a message whose sender stopped while it was with the mail server is not sent again. */
const LAPSED_SEND =
  'its sender stopped while it was being sent (the mail server may have taken it): not sent again';
/** The wait before the first retry of a message the transport refused; doubled each time. */
const FIRST_RETRY_MS = 30_000;
/** The longest wait between two attempts at one message. */
const MAX_BACKOFF_MS = 60 * 60_000;
/** Attempts before a message is given up (about two hours of retries). */
const MAX_ATTEMPTS = 8;
/** How often the queue is looked at for messages due (a retry, one a crash left). */
const DRAIN_EVERY_MS = 10_000;

/** What a queued message becomes when it is sent: its words, made then. */
export type MailContent = Pick<MailMessage, 'subject' | 'text' | 'html' | 'link'>;

/**
 * Makes a queued message's text from the records it refers to, when it is sent; `{ skip }` when
 * there is nothing to send any more, with why; `{ gone }` when what it was for has been erased or
 * deleted (a closed account, a deleted order): the message's record is deleted too, as the erasure
 * would have (it may have been queued while the erasure ran).
 */
export type MailBuilder = (
  mail: QueuedMail,
) => Promise<MailContent | { skip: string } | { gone: string }>;

/** An e-mail to send for an event. */
export interface MailEvent {
  /** The event's unique key (`order:<id>:confirmation`): a second call for it sends nothing. */
  key: string;
  template: MailTemplate;
  to: string;
  /** Whom it is sent for (recorded with it: the export, the erasure). */
  for: MailFor;
  /** Another record it is about, by id (a contact message). */
  ref?: string;
  /** What else its text needs that names nobody and opens nothing (a day, a budget's name). */
  params?: MailParams;
  /** Earlier messages of this template for the same account still waiting are not sent. */
  onlyLatest?: boolean;
}

/**
 * `sent`: it left now; `queued`: recorded, the sender retries it; `duplicate`: its event already
 * has a message (sent or on its way); `skipped`: nothing to send; `lost`: not even recorded.
 */
export type MailOutcome = 'sent' | 'queued' | 'duplicate' | 'skipped' | 'lost';

/**
 * A failure's text without the message's link, nor the secret parts of it (a reset's code, a
 * signature) quoted alone: a mail server's refusal may quote the line it disliked, and the queue
 * keeps and logs the failure.
 */
function withoutLink(text: string, link: string | undefined): string {
  if (!link) return text;
  let out = text.split(link).join('[link]');
  let secrets: string[] = [];
  try {
    const url = new URL(link);
    secrets = [url.pathname.split('/').pop() ?? '', ...url.searchParams.values()];
  } catch {
    // Not a URL: the link itself is all there is to hide.
  }
  for (const secret of secrets) if (secret.length >= 16) out = out.split(secret).join('[secret]');
  return out;
}

/** The record's owner as the mail log keeps it. */
function ownerOf(mail: QueuedMail): MailFor {
  return mail.about
    ? { shop: true, about: mail.about }
    : { accountId: mail.accountId, orderId: mail.orderId };
}

/**
 * The shop's e-mail, through a queue in the database (`mail_outbox`) as text messages go: each
 * event queued once under its key, then sent at once by the instance that queued it; a message the
 * transport refused, or one a crash left before it was sent, is sent later by whichever instance
 * leases it first, with a growing wait, up to MAX_ATTEMPTS.
 *
 * At most once: a leased message is marked `sending` (under its lease, by one attempt) before it is
 * made, and from then on only that attempt makes it, sends it and records what became of it; its
 * lease is renewed while it runs. Should the lease of a `sending` message lapse all the same (its
 * instance died, or lost the database, while the mail server had the message), nobody knows
 * whether it left, and it is given up, not sent again. Chosen as the shop's customer would: a
 * reset sent twice brings two links, the second voiding the first (the one they open first says
 * "not valid"); an order's or a booking's message twice reads as a second order or a second bill.
 * A missing reset is asked for again, and an order shows in the account; and a send is cut off by
 * the transport's timeouts long before its lease, so only a crash at that moment loses one. The queue keeps which message it is and what it is about;
 * the text is made when it is sent by the builder its module registered, so a reset's link exists
 * only in the e-mail. Sending is MailService's (SMTP, or the .eml outbox in development).
 */
@Injectable()
export class MailQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(MailQueue.name);
  private readonly builders = new Map<MailTemplate, MailBuilder>();
  /** Each recipient's messages in hand on this instance, the last one's end (`attempt`). */
  private readonly turns = new Map<string, Promise<void>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private draining?: Promise<number>;

  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailService,
    private readonly log: MailLogRepository,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'mail.send-due',
      everyMs: DRAIN_EVERY_MS,
      runsOn: 'one',
      // Messages a crash left are sent at start-up, then whatever falls due.
      atStart: true,
      // The wall clock, not the sweep's time: a message's lease is compared with it.
      run: () => this.drain(),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** The module that owns a message's words says how they are made (at its start-up). */
  register(template: MailTemplate, builder: MailBuilder): void {
    this.builders.set(template, builder);
  }

  /**
   * Queues the e-mail of an event, unless that event has one already, and sends it now. Never
   * throws: the work that caused it is done whatever becomes of the e-mail.
   */
  send(event: MailEvent): Promise<MailOutcome> {
    return this.track(this.queueAndSend(event));
  }

  /** Deletes the messages queued for these orders (an order deleted takes its e-mails along). */
  forget(person: { orderIds: readonly string[] }): Promise<number> {
    return this.outbox.eraseFor(person);
  }

  /**
   * Sends every message now due (`now`: the clock), one at a time, one pass at a time per instance
   * (a pass asked for during another starts after it); answers how many were sent.
   */
  async drain(now?: Date): Promise<number> {
    while (this.draining) await this.draining.catch(() => undefined);
    const pass = this.track(this.pass(now));
    this.draining = pass;
    try {
      return await pass;
    } finally {
      this.draining = undefined;
    }
  }

  private async pass(now?: Date): Promise<number> {
    let sent = 0;
    try {
      await this.giveUpLapsedSends(now ?? new Date());
      for (;;) {
        const leased = await this.outbox.lease(now ?? new Date(), LEASE_MS);
        if (!leased) break;
        if ((await this.attempt(leased, now)) === 'sent') sent++;
      }
    } catch (error) {
      this.logger.error(`Sending due e-mails failed: ${(error as Error).message}`);
    }
    return sent;
  }

  /** Messages whose sender stopped while sending them: given up, never sent again (see above). */
  private async giveUpLapsedSends(now: Date): Promise<void> {
    for (const mail of await this.outbox.giveUpLapsedSends(now, LAPSED_SEND))
      this.logger.warn(`The ${mail.template} e-mail ${mail._id} is given up: ${LAPSED_SEND}`);
  }

  private async queueAndSend(event: MailEvent): Promise<MailOutcome> {
    const now = new Date();
    const owner = event.for;
    const shop = 'shop' in owner;
    try {
      const inserted = await this.outbox.insertOnce({
        _id: event.key,
        template: event.template,
        to: canonicalEmail(event.to),
        accountId: shop ? null : owner.accountId,
        orderId: shop ? null : (owner.orderId ?? null),
        about: shop && owner.about ? canonicalEmail(owner.about) : null,
        ref: event.ref ?? null,
        params: event.params ?? {},
        status: 'pending',
        attempts: 0,
        nextTryAt: now,
        leaseUntil: now,
        lastError: '',
        createdAt: now,
        sentAt: null,
      });
      if (!inserted) return 'duplicate';
      if (event.onlyLatest && !shop && owner.accountId)
        await this.outbox.skipEarlier(
          event.template,
          owner.accountId,
          now,
          'a later one of its kind was asked for',
        );
      const leased = await this.outbox.lease(now, LEASE_MS, event.key);
      // Another instance's sender took it first: it is on its way.
      return leased ? await this.attempt(leased) : 'queued';
    } catch (error) {
      this.logger.error(
        `The ${event.template} e-mail (${event.key}) was not queued: ${(error as Error).message}`,
      );
      return 'lost';
    }
  }

  /**
   * One attempt at a leased message, in its recipient's turn: this instance makes and sends the
   * messages to one address one at a time, in the order they were asked for, so the last one that
   * arrives is the last one made (a reset's link made later voids the earlier ones: the newest
   * e-mail's link is the one that works). A lease that lapsed while it waited is left to whoever
   * leased the message since; otherwise the message is marked `sending` by this attempt first, so
   * no one else makes or sends it.
   */
  private attempt(mail: QueuedMail, clock?: Date): Promise<MailOutcome> {
    const before = this.turns.get(mail.to) ?? Promise.resolve();
    const mine = before.then(async () => {
      // Its lease lapsed while it waited, or it was leased again (and maybe sent) meanwhile: the
      // message is whoever leased it since's, or done.
      if (mail.leaseUntil.getTime() <= Date.now()) return 'queued' as const;
      const sender = randomUUID();
      const until = await this.outbox.markSending(
        mail._id,
        mail.leaseUntil,
        sender,
        new Date(),
        LEASE_MS,
      );
      if (!until) return 'queued' as const;
      // Its lease renewed while it is made and sent, until done (or the lease is no longer its).
      return whileRenewing(() => this.makeAndSend(mail, sender, clock), {
        everyMs: RENEW_EVERY_MS,
        renew: () =>
          this.outbox
            .renewSending(mail._id, sender, new Date(Date.now() + LEASE_MS))
            .catch((error: Error) => {
              this.logger.warn(`Could not renew the lease of e-mail ${mail._id}: ${error.message}`);
              return true;
            }),
      });
    });
    const done = mine.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(mail.to, done);
    void done.then(() => {
      if (this.turns.get(mail.to) === done) this.turns.delete(mail.to);
    });
    return mine;
  }

  /** A message this attempt marked `sending` made, sent and recorded, or its next try set. */
  private async makeAndSend(mail: QueuedMail, sender: string, clock?: Date): Promise<MailOutcome> {
    let content: MailContent | { skip: string } | { gone: string };
    try {
      const builder = this.builders.get(mail.template);
      if (!builder) throw new Error(`no builder for the template ${mail.template}`);
      content = await builder(mail);
    } catch (error) {
      await this.failed(mail, sender, `could not make it: ${(error as Error).message}`, clock);
      return 'queued';
    }
    if ('gone' in content) {
      await this.outbox.remove(mail._id);
      this.logger.log(`The ${mail.template} e-mail ${mail._id} is not sent: ${content.gone}`);
      return 'skipped';
    }
    if ('skip' in content) {
      await this.outbox.markSkipped(mail._id, sender, clock ?? new Date(), content.skip);
      this.logger.log(`The ${mail.template} e-mail ${mail._id} is not sent: ${content.skip}`);
      return 'skipped';
    }
    let logged: string | null;
    try {
      logged = await this.transport.deliver({
        ...content,
        to: mail.to,
        template: mail.template,
        for: ownerOf(mail),
      });
    } catch (error) {
      const why = withoutLink((error as Error).message, content.link);
      await this.failed(mail, sender, why, clock);
      return 'queued';
    }
    // Its record gone, an erasure (or an order's delete) ran while it was sent, after the mail
    // log's record was written or before it (the erasure deletes the queue's records first): the
    // log's record of it goes too.
    if (!(await this.outbox.markSent(mail._id, clock ?? new Date())) && logged)
      await this.log.remove(logged);
    return 'sent';
  }

  private async failed(mail: QueuedMail, sender: string, why: string, clock?: Date): Promise<void> {
    const now = clock ?? new Date();
    const attempts = mail.attempts + 1;
    const giveUp = attempts >= MAX_ATTEMPTS;
    const wait = Math.min(MAX_BACKOFF_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
    await this.outbox.markFailed(
      mail._id,
      sender,
      now,
      why,
      giveUp ? null : new Date(now.getTime() + wait),
    );
    this.logger.warn(
      `The ${mail.template} e-mail ${mail._id} failed (attempt ${attempts}): ${why}${giveUp ? '; given up' : '; will retry'}`,
    );
  }

  /** Work shutdown waits for. */
  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }
}
