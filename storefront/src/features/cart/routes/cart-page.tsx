import { formatMoney, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/icons';
import { ProductImage } from '../../../components/product-image';
import { Steps } from '../../../components/steps';
import { paths } from '../../../config/paths';
import {
  CartGroupHead,
  groupTitle,
  SEPARATE_ORDERS_TEXT,
} from '../../../components/cart-group-head';
import { cartKey, useCartItems, type CartItem } from '../../../stores/cart-store';
import { cartGroups } from '../../../stores/cart-groups';
import { LineUnit, lineTotal, linesTotalAt } from '../../../components/line-unit';
import { DeleteConfirm } from '../components/delete-confirm';
import { QuantityControl } from '../components/quantity-control';
import { Loading } from '../../../components/states';
import {
  useBuysForApprovedOrganisation,
  useCartPriceList,
} from '../../../components/organisation-prices';

// The request's form (its rules, the county list) loads only when a buyer asks for a quote.
const RequestQuoteForm = lazy(() =>
  import('../components/request-quote-form').then((m) => ({ default: m.RequestQuoteForm })),
);

/** /viewCart. */
export function CartPageRoute() {
  const items = useCartItems();
  // A buyer of an approved organisation pays its price list (and may request a quote).
  const list = useCartPriceList();
  const total = linesTotalAt(items, list);
  const [deleting, setDeleting] = useState<string | null>(null);
  const canQuote = useBuysForApprovedOrganisation();
  const [quoting, setQuoting] = useState(false);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const allChecked = items.length > 0 && items.every((i) => checked.has(cartKey(i)));
  const groups = cartGroups(items);
  const line = (item: CartItem) => (
    <li key={cartKey(item)} className="cart-line cart-line-page">
      <label className="line-check">
        <input
          type="checkbox"
          aria-label={`Select ${item.productName}`}
          checked={checked.has(cartKey(item))}
          onChange={() =>
            setChecked((prev) => {
              const next = new Set(prev);
              if (next.has(cartKey(item))) next.delete(cartKey(item));
              else next.add(cartKey(item));
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
            onClick={() => setDeleting(cartKey(item))}
          >
            <Icon name="trash" size={18} />
          </button>
        </div>
        <LineUnit item={item} list={list} />
        <span className="muted small">{item.productDescription}</span>
        <div className="line-bottom">
          <QuantityControl
            id={cartKey(item)}
            quantity={item.quantity}
            name={item.productName}
            min={item.unit?.minQuantity}
            step={item.unit?.step}
          />
          <span className="line-price">{formatMoney(lineTotal(item, list))}</span>
        </div>
      </div>
    </li>
  );
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
                  setChecked(allChecked ? new Set() : new Set(items.map((i) => cartKey(i))))
                }
              />
              ALL
            </label>
            {groups.length > 1 && (
              <p className="notice" role="note">
                {SEPARATE_ORDERS_TEXT}
              </p>
            )}
            {groups.map((g) => (
              <section key={g.key} aria-label={groupTitle(g)}>
                <CartGroupHead group={g} alone={groups.length === 1} checkout />
                <ul className="cart-lines">{g.items.map(line)}</ul>
              </section>
            ))}
          </div>
          <aside className="summary" aria-labelledby="summary-title">
            <h2 id="summary-title">Order Summary</h2>
            <p className="subtotal">
              <span>Cart Subtotal</span> <strong>{formatMoney(total)}</strong>
            </p>
            <p className="subtotal">
              <span>Estimated total</span> <strong>{formatMoney(total)}</strong>
            </p>
            {groups.length > 1 ? (
              <p className="small muted">Check out each order above on its own.</p>
            ) : (
              <Link to={paths.checkoutOf(groups[0]?.key ?? '')} className="btn">
                Checkout
              </Link>
            )}
            {canQuote && !quoting && (
              <button type="button" className="btn btn-outline" onClick={() => setQuoting(true)}>
                Request a quote
              </button>
            )}
          </aside>
        </div>
      )}
      {canQuote && quoting && items.length > 0 && (
        <section className="summary" aria-labelledby="quote-title">
          <h2 id="quote-title">Request a quote</h2>
          <p className="small muted">
            The shop prices these lines for your organisation and sends a quotation.
          </p>
          <Suspense fallback={<Loading />}>
            <RequestQuoteForm items={items} onCancel={() => setQuoting(false)} />
          </Suspense>
        </section>
      )}
      <DeleteConfirm itemId={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
