import {
  BACKOFFICE_MESSAGES,
  MAX_PAGE_SIZE,
  type OrganisationAction,
  type OrganisationKind,
  type OrganisationRole,
  type OrganisationSignUpForm,
  type OrganisationStatus,
  type OrganisationTerms,
  type PriceList,
} from '@spc/shared-contracts';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { api } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface OrganisationsFilter {
  page: number;
  status?: OrganisationStatus;
  kind?: OrganisationKind;
  search?: string;
}

export const organisationKeys = {
  all: ['organisations'] as const,
  list: (filter: OrganisationsFilter) => [...organisationKeys.all, 'list', filter] as const,
  detail: (id: string) => [...organisationKeys.all, 'detail', id] as const,
};

export const ORGANISATIONS_PAGE_SIZE = 20;

export async function getOrganisations({ page, status, kind, search }: OrganisationsFilter) {
  return unwrap(
    await api.GET('/api/organisations', {
      params: {
        query: {
          page,
          limit: ORGANISATIONS_PAGE_SIZE,
          ...(status ? { status } : {}),
          ...(kind ? { kind } : {}),
          ...(search ? { search } : {}),
        },
      },
    }),
  );
}

/** Organisations, newest first, by status, kind, name or KRA PIN (staff and admins). */
export const useOrganisations = (filter: OrganisationsFilter, enabled = true) =>
  useQuery(
    queryOptions({
      queryKey: organisationKeys.list(filter),
      queryFn: () => getOrganisations(filter),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );

export type OrganisationsPage = Awaited<ReturnType<typeof getOrganisations>>;
export type OrganisationRow = OrganisationsPage['organisations'][number];

export async function getOrganisation(id: string) {
  const answer = unwrap(await api.GET('/api/organisations/{id}', { params: { path: { id } } }));
  return answer.organisation;
}

export const useOrganisation = (id: string) =>
  useQuery({ queryKey: organisationKeys.detail(id), queryFn: () => getOrganisation(id) });

export type OrganisationDetail = Awaited<ReturnType<typeof getOrganisation>>;

function useRefresh() {
  const queryClient = useQueryClient();
  return () => refreshQueries(queryClient, organisationKeys.all);
}

const meta = { errorMessage: BACKOFFICE_MESSAGES.genericError };

export function useUpdateOrganisation(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: Partial<OrganisationSignUpForm>) =>
      unwrap(await api.PATCH('/api/organisations/{id}', { params: { path: { id } }, body })),
    meta,
    onSuccess: refresh,
  });
}

export function useOrganisationAction(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ action, reason }: { action: OrganisationAction; reason?: string }) => {
      const params = { path: { id } };
      if (action === 'approve')
        return unwrap(await api.POST('/api/organisations/{id}/approve', { params }));
      if (action === 'suspend')
        return unwrap(
          await api.POST('/api/organisations/{id}/suspend', {
            params,
            body: { reason: reason ?? '' },
          }),
        );
      return unwrap(
        await api.POST('/api/organisations/{id}/decline', {
          params,
          body: { reason: reason ?? '' },
        }),
      );
    },
    meta,
    onSettled: refresh,
  });
}

export function useSetTerms(id: string) {
  const refresh = useRefresh();
  return useMutation({
    // `invoicing` left out keeps how the organisation is invoiced.
    mutationFn: async (
      body: Omit<OrganisationTerms, 'invoicing'> & Partial<Pick<OrganisationTerms, 'invoicing'>>,
    ) => unwrap(await api.PUT('/api/organisations/{id}/terms', { params: { path: { id } }, body })),
    meta,
    onSuccess: refresh,
  });
}

export function useSetPriceList(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: PriceList) =>
      unwrap(
        await api.PUT('/api/organisations/{id}/price-list', { params: { path: { id } }, body }),
      ),
    meta,
    onSuccess: refresh,
  });
}

export function useInvite(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: { email: string; role: OrganisationRole }) =>
      unwrap(
        await api.POST('/api/organisations/{id}/invitations', { params: { path: { id } }, body }),
      ),
    meta,
    onSuccess: refresh,
  });
}

export function useWithdrawInvitation(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (invitationId: string) =>
      unwrap(
        await api.DELETE('/api/organisations/{id}/invitations/{invitationId}', {
          params: { path: { id, invitationId } },
        }),
      ),
    meta,
    onSettled: refresh,
  });
}

export function useChangeRole(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ accountId, role }: { accountId: string; role: OrganisationRole }) =>
      unwrap(
        await api.PATCH('/api/organisations/{id}/people/{accountId}', {
          params: { path: { id, accountId } },
          body: { role },
        }),
      ),
    meta,
    onSettled: refresh,
  });
}

export function useRemovePerson(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (accountId: string) =>
      unwrap(
        await api.DELETE('/api/organisations/{id}/people/{accountId}', {
          params: { path: { id, accountId } },
        }),
      ),
    meta,
    onSettled: refresh,
  });
}

/** Products and their sale units, to pick a price list entry from (the first 100). */
export async function getCatalogueUnits() {
  const answer = unwrap(
    await api.GET('/api/products', { params: { query: { page: 1, limit: MAX_PAGE_SIZE } } }),
  );
  return answer.products.map((p) => ({
    _id: p._id,
    name: p.productName,
    units: p.units.map((u) => ({ _id: u._id, name: u.name })),
  }));
}

export type CatalogueProduct = Awaited<ReturnType<typeof getCatalogueUnits>>[number];

export const useCatalogueUnits = (enabled: boolean) =>
  useQuery({ queryKey: ['products', 'units-choices'], queryFn: getCatalogueUnits, enabled });
