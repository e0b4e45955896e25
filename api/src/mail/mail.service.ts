import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { mailLogRecord, maskEmail, type MailFor, type MailTemplate } from './mail-log';
import { MailLogRepository } from './mail-log.repository';

/**
 * Addresses in a log line masked: a mail server's error often quotes the one it refused ("550 <x@y>:
 * unknown"), and a contact message's subject is the sender's own text.
 */
const maskEmailsIn = (text: string) =>
  text.replace(/[^\s<>"'(),;:]+@([^\s<>"'(),;:]+)/g, (_m, domain: string) => `***@${domain}`);

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The message's link (e.g. a reset link). Logged beside an outbox message in development only:
   * anywhere else a log reader could use it to take over the account. A message with a link keeps
   * no text in the mail log.
   */
  link?: string;
  /** Which message this is, recorded with it (a reset's text is never kept). */
  template: MailTemplate;
  /** Whom it is sent for, recorded with it: only that account's data export shows it. */
  for: MailFor;
}

/**
 * The transport of the API's e-mail (the mail queue, MailQueue, is the one that calls it): SMTP when SMTP_URL is set; otherwise each message is written as
 * an .eml file to `<DATA_DIR>/outbox/` (its link also logged in development, so the flows work on a
 * laptop; never elsewhere). Production without SMTP starts with a loud warning.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter;
  private readonly outbox?: string;
  /** Messages this process has written to the outbox. */
  private filed = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** Where each sent e-mail is recorded, with whom it was for; pruned by a TTL index. */
    private readonly log: MailLogRepository,
  ) {
    if (config.mail.smtpUrl) {
      this.transport = nodemailer.createTransport(config.mail.smtpUrl);
    } else {
      this.transport = nodemailer.createTransport({
        streamTransport: true,
        buffer: true,
        newline: 'unix',
      });
      this.outbox = path.resolve(config.dataDir, 'outbox');
      if (config.env === 'production') {
        this.logger.warn(
          `SMTP_URL is not set: NO E-MAIL LEAVES THIS SERVER. Order confirmations and password-reset ` +
            `links are only written to ${this.outbox}; customers will not receive them. Set SMTP_URL.`,
        );
      }
    }
  }

  /** Sends (or files) the message; a failure is logged and reported as false, never thrown. */
  async send(message: MailMessage): Promise<boolean> {
    try {
      await this.deliver(message);
      return true;
    } catch (error) {
      this.logger.error(
        maskEmailsIn(
          `Could not send e-mail "${message.subject}" to ${maskEmail(message.to)}: ${(error as Error).message}`,
        ),
      );
      return false;
    }
  }

  /**
   * Sends (or files) the message and records it in the mail log; throws when the transport refuses
   * it, with the reason's addresses masked (the mail queue keeps and logs it). Answers the mail
   * log record's id (null when it could not be recorded).
   */
  async deliver(message: MailMessage): Promise<string | null> {
    // An outbox file is named when the message is sent: by time, then this process's count and a
    // random part, so two messages of one millisecond (or of two instances sharing the folder) never
    // share a name, and the names sort in sending order. `wx`: no file is ever overwritten.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(++this.filed).padStart(6, '0')}-${randomBytes(3).toString('hex')}`;
    try {
      const info = await this.transport.sendMail({
        from: this.config.mail.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      if (this.outbox) {
        await mkdir(this.outbox, { recursive: true });
        const slug = message.subject
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .slice(0, 40);
        const file = path.join(this.outbox, `${name}-${slug}.eml`);
        await writeFile(file, info.message as Buffer, { flag: 'wx' });
        const showLink = message.link && this.config.env === 'development';
        this.logger.log(
          `E-mail to ${maskEmail(message.to)} written to ${file}${showLink ? ` (link: ${message.link})` : ''}`,
        );
      }
    } catch (error) {
      throw new Error(maskEmailsIn((error as Error).message));
    }
    return this.record(message);
  }

  /**
   * Records the message sent and whom it was for (never its link, nor the text of a message that
   * carries one); a failure to record never fails the send.
   */
  private async record(message: MailMessage): Promise<string | null> {
    try {
      return await this.log.record(mailLogRecord(message, new Date()));
    } catch (error) {
      this.logger.warn(`Could not record a sent e-mail: ${(error as Error).message}`);
      return null;
    }
  }
}
