import type { SaleUnit } from '@spc/shared-contracts';
import { useParams } from 'react-router';
import { Price, useAddToCart } from '../../../components/product-card';
import { ProductImage } from '../../../components/product-image';
import { ErrorState, Loading } from '../../../components/states';
import { useBookingSettings } from '../../../lib/booking-settings';
import { useProduct } from '../api/get-product';
import { UnitPicker } from '../components/unit-picker';
import '../shop.css';

/** A single seedling with a minimum, a step or tiers shows the unit picker too. */
const hasRules = (u: SaleUnit) => u.minQuantity > 1 || u.step > 1 || u.tiers.length > 0;

/** /single/product/:id. */
export function ProductDetailRoute() {
  const { id = '' } = useParams();
  const { data, isPending, isError } = useProduct(id);
  const addToCart = useAddToCart();
  const settings = useBookingSettings();
  if (isPending) return <Loading />;
  if (isError || !data?.product) return <ErrorState />;
  const p = data.product;
  const inStock = p.productQuantity > 0;
  const batches = p.batches ?? [];
  return (
    <div className="page detail">
      <div className="detail-img">
        <ProductImage
          src={p.productImage}
          images={p.productImages}
          alt={p.productName}
          width={640}
          height={640}
          sizes="(max-width: 768px) 100vw, 50vw"
          eager
        />
        {p.onOffer && <span className="offer-badge">offer</span>}
      </div>
      <div className="detail-body">
        <p className="muted">{p.category?.name}</p>
        <h1>{p.productName}</h1>
        <p>{p.productDescription}</p>
        <Price product={p} />
        {p.units &&
        p.units.length > 0 &&
        (p.units.length > 1 || hasRules(p.units[0]!) || batches.length > 0) ? (
          <UnitPicker
            units={p.units}
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
