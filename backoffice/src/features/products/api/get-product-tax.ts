import type { components } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { productKeys } from './get-products';

/** A product's tax type and item classification code, and each unit's own and effective type. */
export type ProductTax = components['schemas']['ProductTaxDto'];

export async function getProductTax(id: string): Promise<ProductTax> {
  return unwrap(await api.GET('/api/products/{id}/tax', { params: { path: { id } } })).tax;
}

export const productTaxQueryOptions = (id: string) =>
  queryOptions({ queryKey: productKeys.tax(id), queryFn: () => getProductTax(id) });

/** The product's tax, fetched while `id` is given (the form of an existing product is open). */
export const useProductTax = (id: string | undefined) =>
  useQuery({ ...productTaxQueryOptions(id ?? ''), enabled: Boolean(id) });
