import { unwrap } from '@spc/shared-contracts/web-client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const CHOICES = 20;

/** Organisations by name or KRA PIN (the first 20), to narrow the invoices to one. */
export async function getOrganisationChoices(search: string) {
  const answer = unwrap(
    await api.GET('/api/organisations', {
      params: { query: { page: 1, limit: CHOICES, ...(search ? { search } : {}) } },
    }),
  );
  return answer.organisations.map((o) => ({ value: o._id, label: o.name }));
}

export const useOrganisationChoices = (search: string) =>
  useQuery({
    queryKey: ['organisations', 'invoice-choices', search],
    queryFn: () => getOrganisationChoices(search),
    placeholderData: keepPreviousData,
  });
