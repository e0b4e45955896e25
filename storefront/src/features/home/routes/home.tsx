import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { Link, Navigate } from 'react-router';
import { ProductCard } from '../../../components/product-card';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { paths } from '../../../config/paths';
import { useSessionUser } from '../../../stores/session-store';
import { useFeaturedProducts } from '../api/get-featured-products';
import { HeroCarousel } from '../components/hero-carousel';
import { LazyMap } from '../components/lazy-map';
import { Testimonials } from '../components/testimonials';

const BENEFITS = [
  { title: '400+ varieties', text: 'Fruits, vegetables, herbs, flowers and trees.' },
  { title: 'Quick delivery', text: 'Carefully packed seedlings to your door.' },
  { title: '100% money-back', text: 'If an item does not suit you, we refund it.' },
];

const COLLECTIONS = ['Vegetables', 'Herbs and spices', 'Flowers', 'Fruits', 'Forestry'];

function Featured() {
  const { data, isPending, isError } = useFeaturedProducts();
  if (isPending) return <Loading />;
  if (isError) return <ErrorState />;
  if (!data.products.length) return <Empty message={STOREFRONT_MESSAGES.noFeaturedProducts} />;
  return (
    <div className="product-grid">
      {data.products.map((p) => (
        <ProductCard key={p._id} product={p} />
      ))}
    </div>
  );
}

export function HomeRoute() {
  const user = useSessionUser();
  // Admins and staff who land on the shop's home are sent on to their dashboard (spec §2).
  if (user && user.role !== 'customer') return <Navigate to={paths.dashboard} replace />;
  return (
    <div className="home">
      <HeroCarousel />
      <section className="benefits" aria-label="Why shop with us">
        {BENEFITS.map((b) => (
          <div key={b.title} className="benefit">
            <h2>{b.title}</h2>
            <p>{b.text}</p>
          </div>
        ))}
      </section>
      <section className="page" aria-labelledby="collections-title">
        <h2 id="collections-title">Our collections</h2>
        <div className="collections">
          {COLLECTIONS.map((c, i) => (
            <article key={c} className={`collection collection-${i}`}>
              <h3>{c}</h3>
              <Link to={paths.shop} className="btn btn-light btn-sm" aria-label={`Shop now, ${c}`}>
                Shop now
              </Link>
            </article>
          ))}
        </div>
      </section>
      <section className="page" aria-labelledby="featured-title">
        <h2 id="featured-title">Featured Seedlings</h2>
        <Featured />
      </section>
      <section className="closing">
        <h2>Grow something beautiful this season</h2>
        <Link to={paths.shop} className="btn btn-light">
          GO TO SHOP
        </Link>
      </section>
      <Testimonials />
      <LazyMap />
    </div>
  );
}
