import { Injectable } from '@nestjs/common';
import { toKenyanMsisdn } from '@spc/shared-contracts';
import { phoneSpellings } from '../common/personal-data';
import { UsersRepository } from '../users/users.repository';
import { ConsentsRepository } from './consents.repository';

/** Where a consent was given or withdrawn. */
export type ConsentSource = 'profile' | 'sms-stop';

export interface ConsentEvent {
  granted: boolean;
  at: Date;
  source: ConsentSource;
}

/** A customer's consent to marketing text messages (order texts need none: they are transactional). */
export interface MarketingConsent {
  /** The account's id. */
  _id: string;
  /** The number the offers go to (+254…), or null. */
  phone: string | null;
  granted: boolean;
  at: Date | null;
  source: ConsentSource | null;
  /** Every change, oldest first. */
  history: ConsentEvent[];
}

/** Words that stop marketing texts when a customer replies with one of them. */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'ACHA']);

export function isStopReply(text: string): boolean {
  return STOP_WORDS.has(
    text
      .trim()
      .toUpperCase()
      .replace(/[^A-Z]/g, ''),
  );
}

/**
 * Marketing consent: off until the customer opts in, each change recorded with its time and
 * source. A STOP reply withdraws it for every account with that number.
 */
@Injectable()
export class ConsentsService {
  constructor(
    private readonly consents: ConsentsRepository,
    private readonly users: UsersRepository,
  ) {}

  async get(userId: string): Promise<MarketingConsent> {
    return (
      (await this.consents.find(userId)) ?? {
        _id: userId,
        phone: null,
        granted: false,
        at: null,
        source: null,
        history: [],
      }
    );
  }

  /** Records the customer's choice (nothing when it is already so); answers the consent now. */
  async set(
    userId: string,
    phoneNumber: string,
    granted: boolean,
    source: ConsentSource,
  ): Promise<MarketingConsent> {
    const now = new Date();
    const phone = toKenyanMsisdn(phoneNumber);
    await this.consents.change(userId, phone, granted, source, now);
    // The first choice: no record yet (a record that already says so is left as it is).
    if (!(await this.consents.find(userId)))
      await this.consents.insertFirst({
        _id: userId,
        phone,
        granted,
        at: now,
        source,
        history: [{ granted, at: now, source }],
      });
    return this.get(userId);
  }

  /**
   * A STOP reply from this number: withdraws every consent given with it, and that of every account
   * with this number now; answers how many.
   */
  async stopFrom(from: string): Promise<number> {
    const phone = toKenyanMsisdn(from);
    if (!phone) return 0;
    // The number the consent was given with, or an account's number now (a phone changed since).
    const accounts = await this.users.idsWithPhone(phoneSpellings(phone));
    return this.consents.withdraw(phone, accounts, {
      granted: false,
      at: new Date(),
      source: 'sms-stop',
    });
  }

  forget(userId: string): Promise<void> {
    return this.consents.forget(userId);
  }
}
