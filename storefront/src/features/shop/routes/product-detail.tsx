import { useParams } from 'react-router';
import { Price, useAddToCart } from '../../../components/product-card';
import { ProductImage } from '../../../components/product-image';
import { ErrorState, Loading } from '../../../components/states';
import { useProduct } from '../api/get-product';
import '../shop.css';

/** /single/product/:id. */
export function ProductDetailRoute() {
  const { id = '' } = useParams();
  const { data, isPending, isError } = useProduct(id);
  const addToCart = useAddToCart();
  if (isPending) return <Loading />;
  if (isError || !data?.product) return <ErrorState />;
  const p = data.product;
  const inStock = p.productQuantity > 0;
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
        <p>
          Qnty: <strong>{inStock ? `${p.productQuantity} left` : 'Out of Stock'}</strong>
        </p>
        <Price product={p} />
        {inStock ? (
          <button type="button" className="btn" onClick={() => addToCart(p)}>
            Add to Cart
          </button>
        ) : (
          <button type="button" className="btn btn-grey" disabled>
            Out Of Stock
          </button>
        )}
      </div>
    </div>
  );
}
