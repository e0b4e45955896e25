import { MAX_PAGE_SIZE } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Products and their sale units, for a line of the draft (the first 100). */
export async function getProductUnits() {
  const answer = unwrap(
    await api.GET('/api/products', { params: { query: { page: 1, limit: MAX_PAGE_SIZE } } }),
  );
  return answer.products.map((p) => ({
    _id: p._id,
    name: p.productName,
    units: p.units.map((u) => ({ _id: u._id, name: u.name, seedlings: u.seedlings })),
  }));
}
export type ProductUnits = Awaited<ReturnType<typeof getProductUnits>>[number];

export const useProductUnits = () =>
  useQuery({ queryKey: ['products', 'quotation-units'], queryFn: getProductUnits });

/** A product's batches still growing with seedlings left: a line's other sources. */
export async function getGrowingBatches(productId: string) {
  const answer = unwrap(
    await api.GET('/api/batches', {
      params: { query: { page: 1, limit: MAX_PAGE_SIZE, productId, status: 'Growing' } },
    }),
  );
  return answer.items.map((b) => ({ _id: b._id, readyOn: b.readyOn, available: b.available }));
}
export type GrowingBatch = Awaited<ReturnType<typeof getGrowingBatches>>[number];

export const useGrowingBatches = (productId: string) =>
  useQuery({
    queryKey: ['batches', 'growing', productId],
    queryFn: () => getGrowingBatches(productId),
    enabled: Boolean(productId),
  });
