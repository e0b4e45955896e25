import {
  ConflictException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import {
  ORGANISATION_LIMITS as L,
  ORGANISATION_MESSAGES as OM,
  ORGANISATION_ROLE_LABELS,
  type OrganisationInvitationView,
  type OrganisationRole,
  type OrganisationView,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { canonicalEmail } from '../common/identifiers';
import type { Principal } from '../common/principal';
import { QuotaService } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import { MailQueue } from '../mail/mail-queue.service';
import { UsersService } from '../users/users.service';
import type { MyInvitationDto } from './dto/organisation-people.dto';
import { OrganisationInvitationCodes } from './organisation-invitation-codes';
import { OrganisationInvitationMail } from './organisation-invitation-mail';
import {
  OrganisationInvitationsRepository,
  type InvitationRecord,
} from './organisation-invitations.repository';
import { memberOf, type OrganisationRecord } from './organisation-record';
import { OrganisationViews, standingOf, type Standing } from './organisation-views';
import { organisationConflict } from './organisations.service';
import { OrganisationsRepository } from './organisations.repository';

const orgTarget = (org: OrganisationRecord) => ({
  type: 'organisation',
  id: org._id,
  label: org.name,
});
const invitationView = (i: InvitationRecord): OrganisationInvitationView => ({
  _id: i._id,
  email: i.email,
  role: i.role,
  invitedAt: i.invitedAt,
  expiresAt: i.expiresAt,
});

/** Its approvers and the shop manage an organisation's people; a buyer does not. */
function requireManager(standing: Standing): void {
  if (!standing.shop && standing.role !== 'approver')
    throw new ForbiddenException(
      "Only an approver of the organisation, or the shop, can manage the organisation's people",
    );
}

/**
 * The people of an organisation. A person is invited by the e-mail of their customer account and
 * joins by accepting from that account: the inviter hears the same whether or not the address has
 * an account (only its owner is e-mailed), so nobody learns who has one, and nobody is made a
 * buyer for an organisation without saying yes. Roles change and people leave under the rule
 * "at least one approver", held by the repository's atomic updates.
 */
@Injectable()
export class OrganisationPeopleService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(OrganisationPeopleService.name);
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly orgs: OrganisationsRepository,
    private readonly invitations: OrganisationInvitationsRepository,
    private readonly views: OrganisationViews,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly mail: MailQueue,
    private readonly quota: QuotaService,
    private readonly invitationMail: OrganisationInvitationMail,
    private readonly codes: OrganisationInvitationCodes,
  ) {}

  onModuleInit(): void {
    this.mail.register('organisation-invitation', (m) => this.invitationMail.build(m));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  async invite(
    actor: Principal,
    id: string,
    email: string,
    role: OrganisationRole,
  ): Promise<OrganisationInvitationView> {
    const { org, standing } = await this.views.load(actor, id);
    requireManager(standing);
    if (org.status === 'declined') throw new ConflictException(OM.organisationDeclined);
    const address = canonicalEmail(email);
    const people = await this.users.findManyByIds(org.members.map((m) => m.accountId));
    if (people.some((p) => canonicalEmail(p.email) === address))
      throw new ConflictException(OM.personAlreadyMember);
    const claim = await this.quota.take([
      {
        limit: { name: 'organisation-invitations', limit: L.invitationsPerDay, per: 'day' },
        key: `organisation:${org._id}`,
      },
    ]);
    if (!claim.granted)
      throw new TooManyRequestsException(OM.tooManyInvitations, claim.retryAfterSeconds);

    // The account that may accept: a customer's, open and active, with this address now.
    const account = await this.users.findByEmail(address);
    const invitee = account && account.role === 'customer' && account.isActive ? account._id : null;
    const now = new Date();
    const invitation = await this.invitations.upsert({
      organisationId: org._id,
      email: address,
      accountId: invitee,
      role,
      invitedAt: now,
      expiresAt: new Date(now.getTime() + L.invitationDays * 86_400_000),
    });
    // After the answer, so that the answer takes as long with an account as without.
    if (invitee) this.inBackground(this.invitationMail.send(invitation, invitee, now));
    await this.audit.record(
      actor,
      'organisation.invite',
      // Not the address: it may name someone without an account, whom no erasure would find.
      `${actor.fullName} invited a person to ${org.name} as ${ORGANISATION_ROLE_LABELS[role].toLowerCase()} (invitation ${invitation._id})`,
      orgTarget(org),
    );
    return invitationView(invitation);
  }

  async withdraw(actor: Principal, id: string, invitationId: string): Promise<OrganisationView> {
    const { org, standing } = await this.views.load(actor, id);
    requireManager(standing);
    if (!(await this.invitations.delete(invitationId, { organisationId: org._id })))
      throw new NotFoundException(OM.noInvitation);
    await this.audit.record(
      actor,
      'organisation.invitation.withdraw',
      `${actor.fullName} withdrew invitation ${invitationId} to ${org.name}`,
      orgTarget(org),
    );
    return this.views.view(org, standing);
  }

  /** The invitations the signed-in customer may accept, oldest first. */
  async mine(actor: Principal): Promise<MyInvitationDto[]> {
    const open = await this.invitations.ofAccount(actor.id, new Date());
    const out: MyInvitationDto[] = [];
    for (const i of open) {
      const org = await this.orgs.findById(i.organisationId);
      if (!org || org.status === 'declined') continue;
      out.push({
        _id: i._id,
        organisation: { _id: org._id, name: org.name, kind: org.kind },
        role: i.role,
        invitedAt: i.invitedAt,
        expiresAt: i.expiresAt,
      });
    }
    return out;
  }

  /** The invited customer joins, in the invitation's role; 409 when they buy for one already. */
  async accept(actor: Principal, invitationId: string, code: string): Promise<OrganisationView> {
    const now = new Date();
    const invitation = await this.invitations.findOpen(invitationId, { accountId: actor.id }, now);
    if (!invitation || !this.codes.matches(invitation, code))
      throw new NotFoundException(OM.noInvitation);
    let org: OrganisationRecord | null;
    try {
      org = await this.orgs.addMember(
        invitation.organisationId,
        { accountId: actor.id, role: invitation.role, joinedAt: now },
        L.people,
      );
    } catch (error) {
      throw organisationConflict(error) ?? error;
    }
    if (!org) {
      const current = await this.orgs.findById(invitation.organisationId);
      if (!current) throw new NotFoundException(OM.noInvitation);
      if (current.status === 'declined') throw new ConflictException(OM.organisationDeclined);
      if (!memberOf(current, actor.id)) throw new ConflictException(OM.tooManyPeople);
      org = current;
    }
    await this.invitations.delete(invitationId, { accountId: actor.id });
    await this.audit.record(
      actor,
      'organisation.join',
      `${actor.fullName} joined ${org.name} as ${ORGANISATION_ROLE_LABELS[invitation.role].toLowerCase()}`,
      orgTarget(org),
    );
    const role = memberOf(org, actor.id)?.role ?? invitation.role;
    return this.views.view(org, { shop: false, role });
  }

  /** The invited customer says no: the invitation goes. */
  async decline(actor: Principal, invitationId: string, code: string): Promise<void> {
    const invitation = await this.invitations.findOpen(
      invitationId,
      { accountId: actor.id },
      new Date(),
    );
    if (
      !invitation ||
      !this.codes.matches(invitation, code) ||
      !(await this.invitations.delete(invitationId, { accountId: actor.id }))
    )
      throw new NotFoundException(OM.noInvitation);
    const org = await this.orgs.findById(invitation.organisationId);
    if (org)
      await this.audit.record(
        actor,
        'organisation.invitation.decline',
        `${actor.fullName} declined an invitation to ${org.name}`,
        orgTarget(org),
      );
  }

  async changeRole(
    actor: Principal,
    id: string,
    accountId: string,
    role: OrganisationRole,
  ): Promise<OrganisationView> {
    const { org, standing } = await this.views.load(actor, id);
    requireManager(standing);
    if (!memberOf(org, accountId)) throw new NotFoundException(OM.notMember);
    const changed = await this.orgs.changeRole(org._id, accountId, role);
    if (!changed) throw await this.whyNot(org._id, accountId);
    await this.audit.record(
      actor,
      'organisation.role',
      `${actor.fullName} made ${await this.nameOf(accountId)} ${role === 'approver' ? 'an approver' : 'a buyer'} of ${org.name}`,
      await this.personTarget(accountId),
    );
    return this.views.view(changed, standingOf(actor, changed) ?? standing);
  }

  /**
   * Takes a person out: by its approvers or the shop, or a person leaving. The last approver stays
   * (409) until another is made. Answers the organisation as the caller now sees it (null: they left).
   */
  async remove(actor: Principal, id: string, accountId: string): Promise<OrganisationView | null> {
    const { org, standing } = await this.views.load(actor, id);
    const leaving = !standing.shop && accountId === actor.id;
    if (!leaving) requireManager(standing);
    if (!memberOf(org, accountId)) throw new NotFoundException(OM.notMember);
    const name = await this.nameOf(accountId);
    const changed = await this.orgs.removeMember(org._id, accountId);
    if (!changed) throw await this.whyNot(org._id, accountId);
    await this.audit.record(
      actor,
      'organisation.remove',
      leaving
        ? `${actor.fullName} left ${org.name}`
        : `${actor.fullName} removed ${name} from ${org.name}`,
      await this.personTarget(accountId),
    );
    const now = standingOf(actor, changed);
    return now ? this.views.view(changed, now) : null;
  }

  /** Why a change to a person did nothing: they are no longer there (404), or the last approver. */
  private async whyNot(orgId: string, accountId: string): Promise<Error> {
    const now = await this.orgs.findById(orgId);
    if (!now) return new NotFoundException(OM.noOrganisation);
    if (!memberOf(now, accountId)) return new NotFoundException(OM.notMember);
    return new ConflictException({ message: OM.lastApprover, code: 'LAST_APPROVER' });
  }

  private async nameOf(accountId: string): Promise<string> {
    return (await this.users.findById(accountId))?.fullName ?? 'a person';
  }

  /** The person an entry is about: their erasure finds it and takes their name out of it. */
  private async personTarget(accountId: string) {
    return { type: 'customer', id: accountId, label: await this.nameOf(accountId) };
  }

  private inBackground(work: Promise<unknown>): void {
    const p = work.catch((error: Error) =>
      this.logger.error(`Invitation e-mail failed: ${error.message}`),
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
