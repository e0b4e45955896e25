import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { ProfilePicturesService } from './profile-pictures.service';
import { UsersRepository } from './users.repository';

/**
 * Accounts: the name, e-mail, phone, address, KRA PIN and picture a person gave. Exported as `account` and
 * `deliveryDetails`; erased by closing the account (a closed record keeps the id the orders and
 * the trail refer to, and nothing else of the person) and deleting the pictures.
 */
@Injectable()
@OwnsPersonalData()
export class UsersPersonalData implements PersonalDataOwner {
  readonly collections = {
    users:
      'name, e-mail, phone, county, street address, KRA PIN (for tax invoices) and picture of each account',
  };

  constructor(
    private readonly users: UsersRepository,
    private readonly pictures: ProfilePicturesService,
  ) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const user = subject.accountId ? await this.users.findById(subject.accountId) : null;
    if (!user) return { account: null, deliveryDetails: null };
    const { role: _role, ...account } = user;
    return {
      account,
      deliveryDetails: {
        fullName: user.fullName,
        phoneNumber: user.phoneNumber,
        county: user.county,
        streetAddress: user.streetAddress,
      },
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    if (!subject.accountId) return;
    const keys = await this.pictures.keysOf(subject.accountId);
    await this.users.closeAccount(subject.accountId, ANONYMOUS_NAME);
    await this.pictures.discard(keys);
  }
}
