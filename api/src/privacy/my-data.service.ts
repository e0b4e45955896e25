import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { CredentialsService } from '../auth/credentials.service';
import type { Principal } from '../common/principal';
import { QuotaService, type WindowLimit } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import { UsersService } from '../users/users.service';
import { ANONYMOUS_NAME } from '../common/personal-data';
import { Erasure } from './erasure';
import { ConsentsService, type MarketingConsent } from './consents.service';
import { DataExportBuilder, type DataExport } from './data-export';

/** Downloads of one's data a shop day: enough to retry, too few to load the database. */
export const EXPORTS_PER_DAY = 3;
const EXPORT_LIMIT: WindowLimit = { name: 'data-export', limit: EXPORTS_PER_DAY, per: 'day' };

export const PRIVACY_MESSAGES = {
  tooManyExports: `You can download your data ${EXPORTS_PER_DAY} times a day. Please try again tomorrow.`,
  wrongPassword: 'The password is not correct',
  customersOnly:
    'Only a customer account can be deleted here; staff accounts are closed by the admin',
} as const;

/**
 * A signed-in customer's own data: the download (rate-limited, audited), the deletion of the
 * account, and the marketing consent.
 */
@Injectable()
export class MyDataService {
  constructor(
    private readonly users: UsersService,
    private readonly credentials: CredentialsService,
    private readonly audit: AuditService,
    private readonly quota: QuotaService,
    private readonly exports: DataExportBuilder,
    private readonly erasure: Erasure,
    private readonly consents: ConsentsService,
  ) {}

  async export(actor: Principal): Promise<DataExport> {
    const answer = await this.quota.take([{ limit: EXPORT_LIMIT, key: `user:${actor.id}` }]);
    if (!answer.granted)
      throw new TooManyRequestsException(PRIVACY_MESSAGES.tooManyExports, answer.retryAfterSeconds);
    const { subject } = await this.erasure.subjectOfAccount(await this.users.get(actor.id));
    const data = await this.exports.build(subject);
    await this.audit.record(actor, 'privacy.export', `${actor.fullName} downloaded their data`, {
      type: 'user',
      id: actor.id,
      label: actor.fullName,
    });
    return data;
  }

  /**
   * Deletes the account, confirmed with its password. Refused while an order is open: a pending
   * order may be paid or on its way, and cancelling it here could leave money to refund or
   * seedlings on a lorry with no one to call; the customer cancels (a pending order) or waits.
   */
  async deleteAccount(actor: Principal, password: string): Promise<void> {
    if (actor.role !== 'customer') throw new ForbiddenException(PRIVACY_MESSAGES.customersOnly);
    // Under the sign-in's lockout: wrong passwords here lock the account as at sign-in.
    if (!(await this.credentials.confirmPassword(actor.id, password)))
      throw new UnauthorizedException(PRIVACY_MESSAGES.wrongPassword);
    const kept = await this.erasure.eraseAccount(await this.users.get(actor.id), 'account-deleted');
    await this.audit.record(
      { ...actor, fullName: ANONYMOUS_NAME },
      'privacy.delete-account',
      `A customer deleted their account; ${kept} order(s) kept without their contacts`,
      { type: 'user', id: actor.id, label: ANONYMOUS_NAME },
    );
  }

  consent(actor: Principal): Promise<MarketingConsent> {
    return this.consents.get(actor.id);
  }

  async setConsent(actor: Principal, granted: boolean): Promise<MarketingConsent> {
    const user = await this.users.get(actor.id);
    return this.consents.set(actor.id, user.phoneNumber, granted, 'profile');
  }
}
