import { Inject, Injectable } from '@nestjs/common';
import { ORGANISATION_KIND_LABELS, ORGANISATION_ROLE_LABELS } from '@spc/shared-contracts';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { customerText } from '../mail/mail-text';
import { UsersService } from '../users/users.service';
import {
  OrganisationInvitationsRepository,
  type InvitationRecord,
} from './organisation-invitations.repository';
import { OrganisationInvitationCodes } from './organisation-invitation-codes';
import { OrganisationsRepository } from './organisations.repository';

/** Where a customer answers their invitations in the shop (the storefront's organisation page). */
export const ORGANISATION_PAGE_PATH = '/user/organisation';

/**
 * The e-mail to a customer invited to buy for an organisation: queued for their account (its
 * export shows it, its erasure takes it), its text made when it is sent from the invitation as it
 * is then (none once the invitation is withdrawn, accepted or lapsed).
 */
@Injectable()
export class OrganisationInvitationMail {
  constructor(
    private readonly mail: MailQueue,
    private readonly invitations: OrganisationInvitationsRepository,
    private readonly orgs: OrganisationsRepository,
    private readonly users: UsersService,
    private readonly codes: OrganisationInvitationCodes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(invitation: InvitationRecord, accountId: string, at: Date): Promise<void> {
    await this.mail.send({
      // A renewed invitation is mailed again.
      key: `organisation-invitation:${invitation._id}:${at.getTime()}`,
      template: 'organisation-invitation',
      to: invitation.email,
      for: { accountId },
      ref: invitation._id,
    });
  }

  async build(queued: QueuedMail): Promise<MailContent | { skip: string } | { gone: string }> {
    const invitation = queued.ref
      ? await this.invitations.findOpen(queued.ref, {}, new Date())
      : null;
    if (!invitation || !invitation.accountId || invitation.accountId !== queued.accountId)
      return { gone: 'the invitation is gone' };
    if (await this.users.isClosed(invitation.accountId)) return { gone: 'the account is closed' };
    const org = await this.orgs.findById(invitation.organisationId);
    if (!org) return { gone: 'the organisation is gone' };
    // The name was typed by whoever signed it up: quoted so no part of it becomes a link.
    const name = customerText(org.name, 120);
    const role = ORGANISATION_ROLE_LABELS[invitation.role].toLowerCase();
    // The link carries the invitation's code: only someone who read this e-mail can answer it.
    const query = new URLSearchParams({
      invitation: invitation._id,
      code: this.codes.code(invitation),
    });
    const page = `${this.config.storefrontUrl}${ORGANISATION_PAGE_PATH}?${query.toString()}`;
    return {
      subject: `Invitation to buy for ${customerText(org.name, 60)}`,
      text: [
        'Hello,',
        '',
        `You were invited to buy for "${name}" (${ORGANISATION_KIND_LABELS[org.kind]}) at the`,
        `Seedling Propagation Centre, as ${role === 'approver' ? 'an approver' : 'a buyer'}.`,
        role === 'approver'
          ? 'An approver accepts the quotations the shop sends and manages who buys for it.'
          : 'A buyer asks the shop for quotations for the organisation.',
        '',
        `To accept or decline, sign in with this address and open this link:`,
        page,
        `The invitation is open until ${invitation.expiresAt.slice(0, 10)}.`,
        '',
        'If you do not know this organisation, decline it or ignore this e-mail: nothing changes',
        'unless you accept.',
        '',
        'Seedling Propagation Centre, Kiambu',
      ].join('\n'),
    };
  }
}
