import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { TokensRepository } from './tokens.repository';

/**
 * Sessions and reset links: hashes of secrets tied to an account id. Not exported (they are
 * secrets, not the person's data to read); deleted with the account.
 */
@Injectable()
@OwnsPersonalData()
export class AuthPersonalData implements PersonalDataOwner {
  readonly collections = {
    refresh_tokens: 'the account id of each session (the token itself only as a hash)',
    refresh_families: 'the account id of each session (which of its tokens is current, if ended)',
    password_resets: 'the account id of each reset link (the link only as a hash)',
  };

  constructor(private readonly tokens: TokensRepository) {}

  async erase(subject: DataSubject): Promise<void> {
    if (subject.accountId) await this.tokens.forgetUser(subject.accountId);
  }
}
