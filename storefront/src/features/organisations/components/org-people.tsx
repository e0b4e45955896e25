import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatDate,
  ORGANISATION_ROLE_LABELS,
  ORGANISATION_ROLES,
  organisationInvitationSchema,
  type OrganisationRole,
  type OrganisationView,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../../components/field';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import {
  useChangeRole,
  useInvite,
  useRemovePerson,
  useWithdrawInvitation,
} from '../api/organisations';

type InviteForm = z.input<typeof organisationInvitationSchema>;
const said = {
  onSuccess: (res: { message: string }) => toast.success(res.message),
  onError: (e: unknown) => toast.error(problemText(e)),
};

function InvitePerson({ id }: { id: string }) {
  const invite = useInvite(id);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<InviteForm>({
    resolver: zodResolver(organisationInvitationSchema),
    defaultValues: { email: '', role: 'buyer' },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await invite.mutateAsync(organisationInvitationSchema.parse(values));
      toast.success(res.message);
      reset();
    } catch (e) {
      toast.error(problemText(e));
    }
  });
  return (
    <form
      className="org-form org-invite"
      onSubmit={onSubmit}
      noValidate
      aria-label="Invite a person"
    >
      <h3>Invite a person</h3>
      <p className="muted small">
        They need a customer account of the shop with this e-mail address.
      </p>
      <Field
        label="Their e-mail"
        id="invite-email"
        type="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" {...register('role')}>
          {ORGANISATION_ROLES.map((r) => (
            <option key={r} value={r}>
              {ORGANISATION_ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-sm" disabled={invite.isPending}>
        {invite.isPending ? 'Sending...' : 'Send invitation'}
      </button>
    </form>
  );
}

/** Its people and roles; approvers invite, change roles, remove; anyone may leave. */
export function OrgPeople({
  org,
  approver,
  me,
}: {
  org: OrganisationView;
  approver: boolean;
  me: string;
}) {
  const changeRole = useChangeRole(org._id);
  const remove = useRemovePerson(org._id);
  const withdraw = useWithdrawInvitation(org._id);
  const busy = changeRole.isPending || remove.isPending;
  return (
    <section className="org-card" aria-labelledby="org-people">
      <h2 id="org-people">People</h2>
      <p className="muted small">
        Buyers buy for the organisation; approvers also manage its people.
      </p>
      <ul className="org-list">
        {org.people.map((p) => {
          const self = p.accountId === me;
          return (
            <li key={p.accountId} className="org-person">
              <div className="org-wrap">
                <strong>
                  {p.fullName}
                  {self && ' (you)'}
                </strong>
                <br />
                {p.email}
                <br />
                <span className="muted small">Since {formatDate(p.joinedAt)}</span>
              </div>
              <div className="row-actions">
                {approver ? (
                  <select
                    aria-label={`Role of ${p.fullName}`}
                    value={p.role}
                    disabled={busy}
                    onChange={(e) =>
                      changeRole.mutate(
                        { accountId: p.accountId, role: e.target.value as OrganisationRole },
                        said,
                      )
                    }
                  >
                    {ORGANISATION_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ORGANISATION_ROLE_LABELS[r]}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span>{ORGANISATION_ROLE_LABELS[p.role]}</span>
                )}
                {(approver || self) && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    disabled={busy}
                    onClick={() => {
                      const q = self
                        ? 'Leave this organisation?'
                        : `Remove ${p.fullName} from the organisation?`;
                      if (window.confirm(q)) remove.mutate(p.accountId, said);
                    }}
                  >
                    {self ? 'Leave' : 'Remove'}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {approver && (
        <>
          <h3>Waiting invitations</h3>
          {org.invitations.length ? (
            <ul className="org-list">
              {org.invitations.map((i) => (
                <li key={i._id} className="org-person">
                  <div className="org-wrap">
                    {i.email} as {ORGANISATION_ROLE_LABELS[i.role].toLowerCase()}
                    <br />
                    <span className="muted small">Open until {formatDate(i.expiresAt)}</span>
                  </div>
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    disabled={withdraw.isPending}
                    onClick={() => withdraw.mutate(i._id, said)}
                  >
                    Withdraw
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No invitations waiting.</p>
          )}
          {org.status !== 'declined' && <InvitePerson id={org._id} />}
        </>
      )}
    </section>
  );
}
