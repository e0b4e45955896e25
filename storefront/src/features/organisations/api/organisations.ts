import type { OrganisationRole, OrganisationSignUpForm } from '@spc/shared-contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { myOrganisationQueryOptions } from '../../../components/organisation-prices';
import { api, unwrap } from '../../../lib/api-client';

export const orgKeys = {
  all: ['organisations'] as const,
  mine: ['organisations', 'mine'] as const,
  invitations: ['organisations', 'invitations'] as const,
};

/** The organisation the signed-in customer buys for and their role (nulls: none). */
export const useMyOrganisation = (enabled = true) =>
  useQuery({ ...myOrganisationQueryOptions(), enabled });

export const useMyInvitations = () =>
  useQuery({
    queryKey: orgKeys.invitations,
    queryFn: () => unwrap(api.GET('/api/organisation-invitations')),
  });

/** Every change answers with the organisation or a message: the area reads it again. */
function useOrgMutation<T>(fn: (input: T) => Promise<{ message: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: orgKeys.all }),
  });
}

export const useSignUpOrganisation = () =>
  useOrgMutation((body: OrganisationSignUpForm) =>
    unwrap(api.POST('/api/organisations', { body: body as never })),
  );

export const useUpdateContacts = (id: string) =>
  useOrgMutation((body: Pick<OrganisationSignUpForm, 'billingContact' | 'deliveryContact'>) =>
    unwrap(api.PATCH('/api/organisations/{id}', { params: { path: { id } }, body })),
  );

export const useInvite = (id: string) =>
  useOrgMutation((body: { email: string; role: OrganisationRole }) =>
    unwrap(api.POST('/api/organisations/{id}/invitations', { params: { path: { id } }, body })),
  );

export const useWithdrawInvitation = (id: string) =>
  useOrgMutation((invitationId: string) =>
    unwrap(
      api.DELETE('/api/organisations/{id}/invitations/{invitationId}', {
        params: { path: { id, invitationId } },
      }),
    ),
  );

export const useChangeRole = (id: string) =>
  useOrgMutation(({ accountId, role }: { accountId: string; role: OrganisationRole }) =>
    unwrap(
      api.PATCH('/api/organisations/{id}/people/{accountId}', {
        params: { path: { id, accountId } },
        body: { role },
      }),
    ),
  );

export const useRemovePerson = (id: string) =>
  useOrgMutation((accountId: string) =>
    unwrap(
      api.DELETE('/api/organisations/{id}/people/{accountId}', {
        params: { path: { id, accountId } },
      }),
    ),
  );

/** Accept or decline an invitation with the code of its e-mail's link. */
export const useAnswerInvitation = () =>
  useOrgMutation(
    ({ id, code, answer }: { id: string; code: string; answer: 'accept' | 'decline' }) => {
      const options = { params: { path: { id } }, body: { code } };
      return answer === 'accept'
        ? unwrap(api.POST('/api/organisation-invitations/{id}/accept', options))
        : unwrap(api.POST('/api/organisation-invitations/{id}/decline', options));
    },
  );
