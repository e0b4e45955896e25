import { DEFAULT_PRICE_RANGE, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Pagination } from '../../../components/pagination';
import { ProductCard } from '../../../components/product-card';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { useBookingSettings } from '../../../lib/booking-settings';
import { EAGER_CARDS } from '../../../lib/picture-preload';
import { readyDay } from '../../../lib/ready-day';
import { productFiltersFrom, useProducts, type Availability } from '../api/get-products';
import { OrderBanner } from '../components/order-banner';
import { PriceFilter } from '../components/price-filter';
import '../shop.css';

/** The list's Availability filter: its query value and its label. */
const AVAILABILITY_OPTIONS: { value: Availability | undefined; label: string }[] = [
  { value: undefined, label: 'All' },
  { value: 'now', label: 'Ready now' },
  { value: 'long-rains', label: 'Long rains' },
  { value: 'short-rains', label: 'Short rains' },
];

/** What an empty list says under each availability. */
const NOTHING: Record<Availability, string> = {
  now: 'No seedlings ready now match these filters.',
  'long-rains': 'Nothing to book for the long rains yet.',
  'short-rains': 'Nothing to book for the short rains yet.',
};

/** /shop/products: the query string carries search, category, maxPrice, availability and page. */
export function ProductsRoute() {
  const [params, setParams] = useSearchParams();
  const { page, search, category, maxPrice, availability } = productFiltersFrom(params);
  const { data, isPending, isError } = useProducts({
    page,
    search,
    category,
    maxPrice,
    availability,
  });
  const seasons = useBookingSettings().data?.seasons ?? [];
  const season = seasons.find((x) => x.key === availability);

  const update = useCallback(
    (changes: Record<string, string | number | undefined>, resetPage = true) => {
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === undefined || v === '') next.delete(k);
          else next.set(k, String(v));
        }
        if (resetPage) next.delete('page');
        return next;
      });
    },
    [setParams],
  );
  const onPrice = useCallback((v: number | undefined) => update({ maxPrice: v }), [update]);
  const chooseAvailability = (v: string | undefined) => update({ availability: v });

  // A category chosen far down the list (or in the phone's dropdown) brings its results into
  // view once they are there, unless the heading is already on screen.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const chosen = useRef(false);
  const chooseCategory = (id: string | undefined) => {
    chosen.current = true;
    update({ category: id });
  };
  useEffect(() => {
    if (!chosen.current || isPending) return;
    chosen.current = false;
    const heading = headingRef.current;
    if (!heading) return;
    const { top } = heading.getBoundingClientRect();
    if (top < 0 || top > window.innerHeight * 0.4) heading.scrollIntoView({ block: 'start' });
  }, [category, isPending]);

  const range = data?.priceRange ?? DEFAULT_PRICE_RANGE;
  const categories = data?.categories ?? [];
  const totals = (data?.totalsPerCategory ?? {}) as Record<string, number>;
  const allCount = Object.values(totals).reduce((a, b) => a + b, 0);
  const heading = categories.find((c) => c._id === category)?.name ?? 'All Products';
  const countOf = (id: string) => totals[id] ?? 0;

  return (
    <div className="page shop">
      <OrderBanner />
      <section className="highlights" aria-label="Why shop with us">
        <div>400+ varieties</div>
        <div>Quick delivery</div>
        <div>100% money-back promise</div>
      </section>
      <div className="shop-grid">
        <aside className="filters" aria-label="Filters">
          <h2>Shop by Category</h2>
          <ul className="category-list">
            <li>
              <button
                type="button"
                aria-pressed={!category}
                onClick={() => chooseCategory(undefined)}
              >
                All <span className="count">({data ? allCount : '…'})</span>
              </button>
            </li>
            {categories.map((c) => (
              <li key={c._id}>
                <button
                  type="button"
                  aria-pressed={category === c._id}
                  onClick={() => chooseCategory(c._id)}
                >
                  {c.name} <span className="count">({countOf(c._id)})</span>
                </button>
              </li>
            ))}
          </ul>
          <h2>Shop by Price</h2>
          <PriceFilter
            id="price-side"
            min={range.min}
            max={range.max}
            value={maxPrice ?? range.max}
            onCommit={onPrice}
          />
          <h2>Availability</h2>
          <ul className="category-list">
            {AVAILABILITY_OPTIONS.map((o) => (
              <li key={o.label}>
                <button
                  type="button"
                  aria-pressed={availability === o.value}
                  onClick={() => chooseAvailability(o.value)}
                >
                  {o.label}
                </button>
              </li>
            ))}
          </ul>
        </aside>
        <div className="compact-filters">
          <div className="field">
            <label htmlFor="category-select">Category</label>
            <select
              id="category-select"
              value={category}
              onChange={(e) => chooseCategory(e.target.value)}
            >
              <option value="">All ({allCount})</option>
              {categories.map((c) => (
                <option key={c._id} value={c._id}>
                  {c.name} ({countOf(c._id)})
                </option>
              ))}
            </select>
          </div>
          <PriceFilter
            id="price-compact"
            min={range.min}
            max={range.max}
            value={maxPrice ?? range.max}
            onCommit={onPrice}
          />
        </div>
        <section className="listing" aria-labelledby="listing-heading">
          {/* On a phone the availability dropdown sits beside the heading: a row of its own would
              push the first product down the screen. */}
          <div className="listing-head">
            <h1 id="listing-heading" ref={headingRef}>
              {heading}
            </h1>
            <select
              id="availability-select"
              className="availability-compact"
              aria-label="Availability"
              value={availability ?? ''}
              onChange={(e) => chooseAvailability(e.target.value)}
            >
              {AVAILABILITY_OPTIONS.map((o) => (
                <option key={o.label} value={o.value ?? ''}>
                  {o.value ? o.label : 'Any time'}
                </option>
              ))}
            </select>
          </div>
          {search && <p className="muted">Results for “{search}”</p>}
          {season && (
            <p className="muted availability-note">
              Ready for the {season.name.toLowerCase()}: {readyDay(season.from)} to{' '}
              {readyDay(season.to, true)}
            </p>
          )}
          {isPending ? (
            <Loading />
          ) : isError ? (
            <ErrorState />
          ) : data.products.length === 0 ? (
            <Empty
              message={
                availability ? NOTHING[availability] : STOREFRONT_MESSAGES.noProductsInCategory
              }
            />
          ) : (
            <div className="product-grid">
              {data.products.map((p, i) => (
                <ProductCard key={p._id} product={p} eager={i < EAGER_CARDS} heading="h2" />
              ))}
            </div>
          )}
          {data && (
            <Pagination
              page={page}
              totalPages={data.totalPages}
              onChange={(p) => {
                update({ page: p > 1 ? p : undefined }, false);
                window.scrollTo({ top: 0 });
              }}
            />
          )}
        </section>
      </div>
    </div>
  );
}
