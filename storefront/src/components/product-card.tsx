import { formatMoney, type SaleUnit } from '@spc/shared-contracts';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import type { Product } from '../lib/types';
import { readyDay } from '../lib/ready-day';
import { useCartStore, type CartBooking } from '../stores/cart-store';
import { useSessionStore } from '../stores/session-store';
import { toast } from './toast';
import { ProductImage } from './product-image';

/**
 * Adds a product to the cart under the signed-in user's id (or none), in `unit` (the single
 * seedling unless told): one step of it, its minimum when new, or `quantity` when given; with
 * `booking`, as a booking of that batch.
 */
export function useAddToCart() {
  const add = useCartStore((s) => s.addToCart);
  const userId = useSessionStore((s) => s.user?._id ?? '');
  return (
    p: Product,
    unit: SaleUnit | undefined = p.units?.[0],
    quantity?: number,
    booking?: CartBooking,
  ) => {
    add(
      {
        _id: p._id,
        userId,
        productName: p.productName,
        productDescription: p.productDescription,
        productImage: p.productImage,
        productImages: p.productImages,
        price: unit ? unit.offerPrice || unit.price : p.onOffer ? p.offerPrice : p.price,
        unit,
        ...(booking ? { booking } : {}),
      },
      quantity,
    );
    const named = unit && unit.seedlings > 1 ? ` (${unit.name})` : '';
    toast.success(
      booking
        ? `${p.productName}${named} booked for ${readyDay(booking.readyOn)}: in your cart`
        : `${p.productName}${named} added to cart`,
    );
  };
}

/** A card's "from KES 12 a seedling" when a tray, a tier or a pack size sells lower than one seedling. */
export function FromPrice({ product }: { product: Product }) {
  if (!product.fromPrice || product.fromPrice >= product.effectivePrice) return null;
  return <p className="from-price small">from {formatMoney(product.fromPrice)} a seedling</p>;
}

/**
 * A price as the cards and the product page show it: the offer in bold with the regular price struck
 * through (a screen reader says which is which; it reads no strike-through), or the price alone.
 * `offerPrice` 0: no offer. `unitName`, when told, says what the price buys ("Tray of 50").
 */
export function Price({
  price,
  offerPrice = 0,
  unitName,
}: {
  price: number;
  offerPrice?: number;
  unitName?: string;
}) {
  const onOffer = offerPrice > 0 && offerPrice < price;
  return (
    <p className="price">
      {onOffer ? (
        <>
          <span className="sr-only">Offer price </span>
          <strong>{formatMoney(offerPrice)}</strong>
          <span className="sr-only">, regular price</span> <s>{formatMoney(price)}</s>
        </>
      ) : (
        <strong>{formatMoney(price)}</strong>
      )}
      {unitName && (
        <>
          {' '}
          <span className="price-unit">· {unitName}</span>
        </>
      )}
    </p>
  );
}

/** A product card: image to the detail, name, price, 'n left' or Out Of Stock. */
export function ProductCard({
  product,
  eager = false,
  heading: Heading = 'h3',
}: {
  product: Product;
  eager?: boolean;
  /** The card title's level: one below the heading of the list it sits in. */
  heading?: 'h2' | 'h3';
}) {
  const addToCart = useAddToCart();
  const inStock = product.productQuantity > 0;
  const batch = product.batches?.[0];
  return (
    <article className="card">
      <Link
        to={paths.product(product._id)}
        className="card-img"
        aria-label={product.onOffer ? `${product.productName}, on offer` : product.productName}
      >
        <ProductImage
          src={product.productImage}
          images={product.productImages}
          alt={product.productName}
          width={320}
          height={320}
          eager={eager}
        />
        {product.onOffer && <span className="offer-badge">offer</span>}
      </Link>
      <Heading className="card-title">{product.productName}</Heading>
      <Price price={product.price} offerPrice={product.onOffer ? product.offerPrice : 0} />
      <FromPrice product={product} />
      {inStock ? (
        <>
          <p className="stock">{product.productQuantity} left</p>
          <button type="button" className="btn" onClick={() => addToCart(product)}>
            Add to Cart
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-grey" disabled>
          Out Of Stock
        </button>
      )}
      {batch && (
        <Link to={paths.product(product._id)} className="book-link small">
          Ready from {readyDay(batch.readyOn)}: book
        </Link>
      )}
    </article>
  );
}
