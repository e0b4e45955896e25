import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MAIL_LOG_COLLECTION, maskEmail, type MailLogRecord } from './mail-log';

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
   * anywhere else a log reader could use it to take over the account.
   */
  link?: string;
}

/**
 * The one way the API sends e-mail: SMTP when SMTP_URL is set; otherwise each message is written as
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
    /** Where each sent e-mail is recorded (the customer's data export); pruned by a TTL index. */
    @Optional() @InjectConnection() private readonly connection?: Connection,
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
      await this.record(message);
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

  /** Records the message sent (never its link); a failure to record never fails the send. */
  private async record(message: MailMessage): Promise<void> {
    if (!this.connection?.db) return;
    try {
      await this.connection.db.collection<MailLogRecord>(MAIL_LOG_COLLECTION).insertOne({
        to: message.to.toLowerCase(),
        subject: message.subject,
        text: message.text,
        sentAt: new Date(),
      });
    } catch (error) {
      this.logger.warn(`Could not record a sent e-mail: ${(error as Error).message}`);
    }
  }
}
