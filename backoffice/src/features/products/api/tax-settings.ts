import type { components, TaxType } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { productKeys } from './get-products';

export type TaxSettings = components['schemas']['TaxSettingsDto'];

export const taxSettingsKeys = { all: ['tax-settings'] as const };

export async function getTaxSettings(): Promise<TaxSettings> {
  return unwrap(await api.GET('/api/tax/settings')).settings;
}

export const taxSettingsQueryOptions = () =>
  queryOptions({ queryKey: taxSettingsKeys.all, queryFn: getTaxSettings });

/** The shop's default tax type (staff and admin read it; the product form names it). */
export const useTaxSettings = () => useQuery(taxSettingsQueryOptions());

/** The admin sets the shop's default tax type (null: none); products' effective types follow. */
export function useSaveTaxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (defaultTaxType: TaxType | null) =>
      unwrap(await api.PUT('/api/tax/settings', { body: { defaultTaxType } })),
    meta: { errorMessage: 'Could not save the tax settings' },
    onSuccess: () =>
      Promise.all([
        refreshQueries(queryClient, taxSettingsKeys.all),
        refreshQueries(queryClient, productKeys.all),
      ]),
  });
}
