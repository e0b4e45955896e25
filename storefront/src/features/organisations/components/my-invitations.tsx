import {
  ORGANISATION_KIND_LABELS,
  ORGANISATION_ROLE_LABELS,
  formatDate,
} from '@spc/shared-contracts';
import { useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/states';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import { useAnswerInvitation, useMyInvitations } from '../api/organisations';

/**
 * Invitations waiting for the signed-in customer: accept (join) or decline. Nothing when none. Only
 * the invitation whose e-mail link opened the page (`?invitation=<id>&code=<code>`) can be answered:
 * the API asks for the link's code.
 */
export function MyInvitations() {
  const [params] = useSearchParams();
  const linked = params.get('invitation');
  const code = params.get('code');
  const { data, isPending, isError, error } = useMyInvitations();
  const answer = useAnswerInvitation();
  if (isPending) return null;
  if (isError) return <ErrorState message={problemText(error)} />;
  if (!data.invitations.length) return null;
  const send = (id: string, code: string, a: 'accept' | 'decline') =>
    answer.mutate(
      { id, code, answer: a },
      {
        onSuccess: (res) => toast.success(res.message),
        onError: (e) => toast.error(problemText(e)),
      },
    );
  return (
    <section className="org-card" aria-labelledby="invitations">
      <h2 id="invitations">Invitations for you</h2>
      <ul className="org-list">
        {data.invitations.map((i) => (
          <li key={i._id}>
            <p>
              <strong className="org-name">{i.organisation.name}</strong> (
              {ORGANISATION_KIND_LABELS[i.organisation.kind]}) asks you to buy for it as{' '}
              {ORGANISATION_ROLE_LABELS[i.role].toLowerCase()}. Open until {formatDate(i.expiresAt)}
              .
            </p>
            {code && linked === i._id ? (
              <div className="row-actions">
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={answer.isPending}
                  onClick={() => send(i._id, code, 'accept')}
                >
                  Accept
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={answer.isPending}
                  onClick={() => send(i._id, code, 'decline')}
                >
                  Decline
                </button>
              </div>
            ) : (
              <p className="muted small">Open the link in the invitation e-mail to accept it</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
