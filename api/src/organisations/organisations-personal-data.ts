import { Injectable } from '@nestjs/common';
import type { OrganisationContact } from '@spc/shared-contracts';
import { canonicalEmail, canonicalPhone } from '../common/identifiers';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { OrganisationInvitationsRepository } from './organisation-invitations.repository';
import { memberOf, type OrganisationRecord } from './organisation-record';
import { OrganisationsRepository } from './organisations.repository';

type Which = 'billingContact' | 'deliveryContact';
const CONTACTS: readonly Which[] = ['billingContact', 'deliveryContact'];

/** A contact as an erasure leaves it: no name, phone or e-mail of the person. */
const ERASED: OrganisationContact = { name: ANONYMOUS_NAME, phone: '', email: '' };

/** True when the contact is the person by one of these: an e-mail, a phone (E.164), a name. */
function names(
  c: OrganisationContact,
  by: { emails: string[]; phones: string[]; names?: string[] },
): boolean {
  if (c.email && by.emails.includes(canonicalEmail(c.email))) return true;
  if (c.phone && by.phones.includes(canonicalPhone(c.phone))) return true;
  const name = c.name.trim().toLowerCase();
  return !!by.names?.some((n) => n.trim().toLowerCase() === name && name !== '');
}

/**
 * Business accounts hold people in three ways. Their people are customer accounts, kept by id with
 * a role: exported to that account, and taken out of the organisation when it is erased (even its
 * last approver: the shop then invites another). Invitations keep the address the inviter typed
 * for 14 days: exported to and erased with the account invited. The billing and delivery contacts
 * are the organisation's own record (who to write to about its bills and deliveries), not a
 * customer's: an erasure replaces a contact by "Deleted customer" with no phone or e-mail when it
 * is the person — in the organisations the person buys for, matched by their name, e-mail or phone;
 * in any other, only by an address proven theirs (an address merely typed proves nobody, and must
 * not blank another organisation's contact). The organisation then names a new contact. The
 * shop's reason for declining or suspending the organisation they buy for may quote them: their
 * names, e-mails and phones leave it.
 */
@Injectable()
@OwnsPersonalData()
export class OrganisationsPersonalData implements PersonalDataOwner {
  readonly collections = {
    organisations:
      "the billing and delivery contacts (a person's name, phone and e-mail), the accounts of its people and their roles",
    organisation_invitations:
      'e-mail addresses invited to buy for an organisation, and the account each was for',
  };

  constructor(
    private readonly orgs: OrganisationsRepository,
    private readonly invitations: OrganisationInvitationsRepository,
  ) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.accountId) return { organisations: [], organisationInvitations: [] };
    const org = await this.orgs.findByMember(subject.accountId);
    const member = org ? memberOf(org, subject.accountId) : undefined;
    const invited = await this.invitations.ofAccount(subject.accountId, new Date());
    const invitedTo = await Promise.all(invited.map((i) => this.orgs.findById(i.organisationId)));
    return {
      organisations:
        org && member
          ? [
              {
                organisation: org.name,
                kraPin: org.kraPin,
                kind: org.kind,
                status: org.status,
                role: member.role,
                joinedAt: member.joinedAt,
                // The contacts of it that are them, as the organisation keeps them.
                youAreItsContact: CONTACTS.filter((w) => names(org[w], subject)).map((w) => ({
                  for: w === 'billingContact' ? 'billing' : 'delivery',
                  ...org[w],
                })),
              },
            ]
          : [],
      organisationInvitations: invited.map((i, n) => ({
        organisation: invitedTo[n]?.name ?? null,
        email: i.email,
        role: i.role,
        invitedAt: i.invitedAt,
        expiresAt: i.expiresAt,
      })),
    };
  }

  /** Contacts first, then the invitations and the membership: a retry after a failure finds all. */
  async erase(subject: DataSubject): Promise<void> {
    const own = subject.accountId ? await this.orgs.findByMember(subject.accountId) : null;
    if (own) await this.eraseContacts(own, subject);
    // The shop's reason for declining or suspending the organisation they buy for may quote them.
    const reason = own ? scrubText(own.statusReason, subject) : '';
    if (own && reason !== own.statusReason) await this.orgs.setStatusReason(own._id, reason);
    for (const org of await this.orgs.withContacts(subject.proven.emails, subject.proven.phones))
      await this.eraseContacts(org, {
        emails: subject.proven.emails,
        phones: subject.proven.phones,
      });
    await this.invitations.forget(subject.accountId, subject.proven.emails);
    if (subject.accountId) await this.orgs.forgetMember(subject.accountId);
  }

  private async eraseContacts(
    org: OrganisationRecord,
    by: { emails: string[]; phones: string[]; names?: string[] },
  ): Promise<void> {
    const replaced: Partial<Record<Which, OrganisationContact>> = {};
    for (const which of CONTACTS) if (names(org[which], by)) replaced[which] = ERASED;
    if (Object.keys(replaced).length) await this.orgs.setContacts(org._id, replaced);
  }
}
