import { Injectable } from '@nestjs/common';
import {
  NO_PERSONAL_DATA,
  OwnsPersonalData,
  type DataSubject,
  type ErasureReason,
  type PersonalDataOwner,
} from '../common/personal-data';
import { ConsentsService } from './consents.service';
import { DataRequestsService } from './data-requests.service';

/**
 * The privacy module's own records: marketing consents (the account and the number offers go to)
 * and guests' data requests (the phone the code went to). The API's shared counters are declared
 * here too: every limit and claim keys a person by a keyed hash, never in clear.
 */
@Injectable()
@OwnsPersonalData()
export class PrivacyPersonalData implements PersonalDataOwner {
  readonly collections = {
    marketing_consents: 'the account and the number offers by text message go to, with each change',
    data_requests: "the phone a guest's request code went to, and the purchase number",
    privacy_settings: NO_PERSONAL_DATA,
    quotas: NO_PERSONAL_DATA,
    rate_limits: NO_PERSONAL_DATA,
    claims: NO_PERSONAL_DATA,
  };

  constructor(
    private readonly consents: ConsentsService,
    private readonly requests: DataRequestsService,
  ) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const consent = subject.accountId ? await this.consents.get(subject.accountId) : null;
    return {
      consents: consent?.history.length ? consent : null,
      // A guest's own requests (an account's person uses their profile, not this form).
      dataRequests: subject.accountId
        ? []
        : (await this.requests.ofPhones(subject.proven.phones)).map((r) => ({
            kind: r.kind,
            purchaseNumber: r.purchaseNumber,
            status: r.status,
            createdAt: r.createdAt,
            answeredAt: r.answeredAt,
            answer: r.answer,
          })),
    };
  }

  async erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    if (subject.accountId) await this.consents.forget(subject.accountId);
    // Only the phone a guest proved: a number typed on someone's own order names nobody's request.
    if (reason !== 'retention') await this.requests.forgetPhones(subject.proven.phones);
  }
}
