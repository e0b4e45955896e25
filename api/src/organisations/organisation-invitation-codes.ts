import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * The code an invitation's e-mail carries, without which it is neither accepted nor declined. An
 * account's e-mail is not verified at sign-up: whoever registered a person's address first would
 * otherwise receive and accept every invitation sent to it without ever reading the mail. The code
 * is an HMAC-SHA256 of the invitation's id and the time it was (re)sent, under a key derived from
 * the server's access-token secret: nothing is stored, a renewed invitation's code replaces the
 * old one, and every API instance computes the same code.
 */
@Injectable()
export class OrganisationInvitationCodes {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // A key of its own, so a code can never be mistaken for a token's or a link's signature.
    this.key = createHmac('sha256', config.jwt.accessSecret)
      .update('organisation-invitations')
      .digest();
  }

  code(invitation: { _id: string; invitedAt: string }): string {
    return createHmac('sha256', this.key)
      .update(`${invitation._id.toLowerCase()}\n${new Date(invitation.invitedAt).getTime()}`)
      .digest('base64url');
  }

  /** True when `given` is this invitation's code (compared in constant time). */
  matches(invitation: { _id: string; invitedAt: string }, given: string): boolean {
    const expected = Buffer.from(this.code(invitation));
    const typed = Buffer.from(given);
    return typed.length === expected.length && timingSafeEqual(typed, expected);
  }
}
