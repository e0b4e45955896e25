import { formatMoney, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/icons';
import { ProductImage } from '../../../components/product-image';
import { Steps } from '../../../components/steps';
import { paths } from '../../../config/paths';
import { useCartItems, useCartTotal } from '../../../stores/cart-store';
import { DeleteConfirm } from '../components/delete-confirm';
import { QuantityControl } from '../components/quantity-control';

/** /viewCart. */
export function CartPageRoute() {
  const items = useCartItems();
  const total = useCartTotal();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const allChecked = items.length > 0 && items.every((i) => checked.has(i._id));
  return (
    <div className="page">
      <Steps current={0} labels={['Shopping Cart', 'Secure Checkout', 'Order Complete']} />
      <h1>Shopping Cart</h1>
      {items.length === 0 ? (
        <p className="state">{STOREFRONT_MESSAGES.cartEmpty}</p>
      ) : (
        <div className="cart-page">
          <div>
            <label className="check">
              <input
                type="checkbox"
                checked={allChecked}
                onChange={() =>
                  setChecked(allChecked ? new Set() : new Set(items.map((i) => i._id)))
                }
              />
              ALL
            </label>
            <ul className="cart-lines">
              {items.map((item) => (
                <li key={item._id} className="cart-line cart-line-page">
                  <label className="line-check">
                    <input
                      type="checkbox"
                      aria-label={`Select ${item.productName}`}
                      checked={checked.has(item._id)}
                      onChange={() =>
                        setChecked((prev) => {
                          const next = new Set(prev);
                          if (next.has(item._id)) next.delete(item._id);
                          else next.add(item._id);
                          return next;
                        })
                      }
                    />
                  </label>
                  <ProductImage
                    src={item.productImage}
                    images={item.productImages}
                    alt={item.productName}
                    width={80}
                    height={80}
                    sizes="80px"
                  />
                  <div className="cart-line-body">
                    <div className="line-top">
                      <strong>{item.productName}</strong>
                      <button
                        type="button"
                        className="icon-btn"
                        aria-label={`Remove ${item.productName}`}
                        onClick={() => setDeleting(item._id)}
                      >
                        <Icon name="trash" size={18} />
                      </button>
                    </div>
                    <span className="muted small">{item.productDescription}</span>
                    <div className="line-bottom">
                      <QuantityControl
                        id={item._id}
                        quantity={item.quantity}
                        name={item.productName}
                      />
                      <span className="line-price">{formatMoney(item.price * item.quantity)}</span>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <aside className="summary" aria-labelledby="summary-title">
            <h2 id="summary-title">Order Summary</h2>
            <p className="subtotal">
              <span>Cart Subtotal</span> <strong>{formatMoney(total)}</strong>
            </p>
            <p className="subtotal">
              <span>Estimated total</span> <strong>{formatMoney(total)}</strong>
            </p>
            <Link to={paths.checkout} className="btn">
              Checkout
            </Link>
          </aside>
        </div>
      )}
      <DeleteConfirm itemId={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
