import { BadRequestException } from '@nestjs/common';
import { PAGE_SIZE, type SeasonKey } from '@spc/shared-contracts';
import { pageRequest, totalPages } from '../../common/pagination';
import type {
  CategoryView,
  ProductListPage,
  ProductListQuery,
  ProductView,
} from '../catalog.types';
import type { ProductListQueryDto } from '../dto/product.dto';
import { matchesSearch, type Snapshot } from './catalogue-snapshot';

/** A list query as the read model keys and computes it: every spelling of one query alike. */
export interface NormalisedListQuery {
  key: string;
  query: ProductListQuery;
  page: number;
}

/** `GET /api/products`'s query, normalised; refuses a minimum price above the maximum. */
export function normaliseListQuery(
  dto: ProductListQueryDto,
  seasonWindow: (key: SeasonKey) => { readyFrom: string; readyTo: string } | null = () => null,
): NormalisedListQuery {
  const { page, limit, skip } = pageRequest(dto, PAGE_SIZE.products);
  if (dto.minPrice !== undefined && dto.maxPrice !== undefined && dto.minPrice > dto.maxPrice) {
    throw new BadRequestException('minPrice cannot be more than maxPrice');
  }
  const sortBy = dto.sortBy === 'price' ? 'price' : 'createdAt';
  const query: ProductListQuery = {
    // Lower-cased like the stored search text; runs of spaces as one, as people type them.
    search: (dto.search ?? dto.name)?.trim().replace(/\s+/g, ' ').toLowerCase() || undefined,
    category: dto.category?.toLowerCase(),
    minPrice: dto.minPrice,
    maxPrice: dto.maxPrice,
    sortBy,
    sortOrder: dto.sortOrder ?? (sortBy === 'price' ? 'asc' : 'desc'),
    skip,
    limit,
    availability: availabilityOf(dto.availability, seasonWindow),
  };
  const key = JSON.stringify([
    query.availability,
    page,
    limit,
    query.search,
    query.category,
    query.minPrice,
    query.maxPrice,
    query.sortBy,
    query.sortOrder,
  ]);
  return { key, query, page };
}

/**
 * The availability asked: ready stock now, or a bookable batch ready in the coming season's window
 * (none: a window no day falls in, so nothing matches).
 */
function availabilityOf(
  asked: ProductListQueryDto['availability'],
  seasonWindow: (key: SeasonKey) => { readyFrom: string; readyTo: string } | null,
): ProductListQuery['availability'] {
  if (!asked) return undefined;
  if (asked === 'now') return { now: true };
  return seasonWindow(asked) ?? { readyFrom: '9999-12-31', readyTo: '0000-01-01' };
}

/** Every category with its product count, given the count of products per category id. */
export type CategoriesWithCounts = (counts: Record<string, number>) => Promise<CategoryView[]>;

/**
 * A list page computed from the in-memory catalogue in one pass over it, in the order asked (the
 * snapshot holds the products sorted by date and by price), counting per category as it goes:
 * every figure of the answer comes from two per-category counts (all products, and those
 * matching the search and price filters), so the totals agree with each other by construction.
 */
export async function computeListPage(
  snapshot: Snapshot,
  { query, page }: NormalisedListQuery,
  categoriesWithCounts: CategoriesWithCounts,
): Promise<ProductListPage> {
  const { search, minPrice, maxPrice, category, availability } = query;
  const all: Record<string, number> = {};
  const counts: Record<string, number> = {};
  const products: ProductView[] = [];
  const end = query.skip + query.limit;
  let totalFilteredProducts = 0;
  const ordered = query.sortBy === 'price' ? snapshot.byPrice : snapshot.byCreatedAt;
  const ascending = query.sortOrder === 'asc';
  for (let i = 0; i < ordered.length; i++) {
    const product = ordered[ascending ? i : ordered.length - 1 - i]!;
    const { view, bookable } = product;
    const id = view.category._id;
    all[id] = (all[id] ?? 0) + 1;
    if (search && !matchesSearch(product, search)) continue;
    if (minPrice !== undefined && view.effectivePrice < minPrice) continue;
    if (maxPrice !== undefined && view.effectivePrice > maxPrice) continue;
    if (availability && 'now' in availability && view.productQuantity <= 0) continue;
    if (
      availability &&
      'readyFrom' in availability &&
      !bookable.some(
        (b) => b.readyOn >= availability.readyFrom && b.readyOn <= availability.readyTo,
      )
    )
      continue;
    counts[id] = (counts[id] ?? 0) + 1;
    if (category && id !== category) continue;
    // Only the page asked for is kept; the others are counted.
    if (totalFilteredProducts >= query.skip && totalFilteredProducts < end) products.push(view);
    totalFilteredProducts += 1;
  }
  const categories = await categoriesWithCounts(all);
  return {
    products,
    categories,
    totalProducts: snapshot.products.length,
    totalsPerCategory: Object.fromEntries(categories.map((c) => [c._id, counts[c._id] ?? 0])),
    totalPages: totalPages(totalFilteredProducts, query.limit),
    totalFilteredProducts,
    page,
    limit: query.limit,
    priceRange: snapshot.priceRange,
  };
}
