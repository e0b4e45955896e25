import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { Link, Navigate } from 'react-router';
import { ProductCard } from '../../../components/product-card';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { paths } from '../../../config/paths';
import { assetUrl } from '../../../lib/api-client';
import { useSitePictures } from '../../../lib/site-pictures';
import { useSessionUser } from '../../../stores/session-store';
import flowers from '../../../assets/art/col-flowers.svg';
import forestry from '../../../assets/art/col-forestry.svg';
import fruits from '../../../assets/art/col-fruits.svg';
import herbs from '../../../assets/art/col-herbs.svg';
import vegetables from '../../../assets/art/col-vegetables.svg';
import { useFeaturedProducts } from '../api/get-featured-products';
import { HeroCarousel, heroSlides } from '../components/hero-carousel';
import { LazyMap } from '../components/lazy-map';
import { Testimonials } from '../components/testimonials';
import '../home.css';

const BENEFITS = [
  { title: '400+ varieties', text: 'Fruits, vegetables, herbs, flowers and trees.' },
  { title: 'Quick delivery', text: 'Carefully packed seedlings to your door.' },
  { title: '100% money-back', text: 'If an item does not suit you, we refund it.' },
];

/** The five collections with their drawn pictures, which the shop's own photos replace. */
const COLLECTIONS = [
  { name: 'Vegetables', image: vegetables, slot: 'collection-vegetables' },
  { name: 'Herbs and spices', image: herbs, slot: 'collection-herbs' },
  { name: 'Flowers', image: flowers, slot: 'collection-flowers' },
  { name: 'Fruits', image: fruits, slot: 'collection-fruits' },
  { name: 'Forestry', image: forestry, slot: 'collection-forestry' },
] as const;

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
  // A signed-in customer stays here (the shop is the customer's landing page); admins and staff
  // are sent on to their back-office landing page.
  const pictures = useSitePictures();
  if (user && user.role !== 'customer') return <Navigate to={paths.dashboard} replace />;
  return (
    <div className="home">
      <HeroCarousel slides={heroSlides(pictures)} />
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
          {COLLECTIONS.map((c) => (
            <article key={c.name} className="collection">
              <img
                src={pictures[c.slot] ? assetUrl(pictures[c.slot]!.url) : c.image}
                alt=""
                width={300}
                height={200}
                loading="lazy"
                decoding="async"
              />
              <div className="collection-body">
                <h3>{c.name}</h3>
                <Link to={paths.shop} className="btn btn-sm" aria-label={`Shop now, ${c.name}`}>
                  Shop now
                </Link>
              </div>
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
