import type { SaleUnit } from '@spc/shared-contracts';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Price, useAddToCart } from '../../../components/product-card';
import { ProductImage } from '../../../components/product-image';
import { DETAIL_PICTURE_SIZES } from '../../../lib/picture-preload';
import { ErrorState, Loading } from '../../../components/states';
import { useBookingSettings } from '../../../lib/booking-settings';
import { useProduct } from '../api/get-product';
import { UnitPicker } from '../components/unit-picker';
import '../shop.css';

/** A single seedling with a minimum, a step or tiers shows the unit picker too. */
const hasRules = (u: SaleUnit) => u.minQuantity > 1 || u.step > 1 || u.tiers.length > 0;

/**
 * /single/product/:id. The price under the name is the chosen unit's (the single seedling's until
 * the shopper picks another), its regular price struck through when that unit is on offer.
 */
export function ProductDetailRoute() {
  const { id = '' } = useParams();
  const { data, isPending, isError } = useProduct(id);
  const addToCart = useAddToCart();
  const settings = useBookingSettings();
  const [unitId, setUnitId] = useState<string>();
  if (isPending) return <Loading />;
  if (isError || !data?.product) return <ErrorState />;
  const p = data.product;
  const inStock = p.productQuantity > 0;
  const batches = p.batches ?? [];
  const units = p.units ?? [];
  const unit = units.find((u) => u._id === unitId) ?? units[0];
  const picker = unit !== undefined && (units.length > 1 || hasRules(unit) || batches.length > 0);
  // An answer without units (from before them) sells the single seedling at the product's price.
  const { price, offerPrice } = unit ?? {
    price: p.price,
    offerPrice: p.onOffer ? p.offerPrice : 0,
  };
  return (
    <div className="page detail">
      <div className="detail-img">
        <ProductImage
          src={p.productImage}
          images={p.productImages}
          alt={p.productName}
          width={640}
          height={640}
          sizes={DETAIL_PICTURE_SIZES}
          eager
        />
        {offerPrice > 0 && <span className="offer-badge">offer</span>}
      </div>
      <div className="detail-body">
        <p className="muted">{p.category?.name}</p>
        <h1>{p.productName}</h1>
        <p>{p.productDescription}</p>
        <Price
          price={price}
          offerPrice={offerPrice}
          unitName={units.length > 1 ? unit?.name : undefined}
        />
        {picker ? (
          <UnitPicker
            units={units}
            unit={unit}
            onChoose={(u) => setUnitId(u._id)}
            stock={p.productQuantity}
            onAdd={(unit, quantity) => addToCart(p, unit, quantity)}
            batches={batches}
            depositPercent={settings.data?.depositPercent}
            onBook={(unit, quantity, batch) =>
              addToCart(p, unit, quantity, { batchId: batch._id, readyOn: batch.readyOn })
            }
          />
        ) : (
          <>
            <p>
              Qnty: <strong>{inStock ? `${p.productQuantity} left` : 'Out of Stock'}</strong>
            </p>
            {inStock ? (
              <button type="button" className="btn" onClick={() => addToCart(p)}>
                Add to Cart
              </button>
            ) : (
              <button type="button" className="btn btn-grey" disabled>
                Out Of Stock
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
}
