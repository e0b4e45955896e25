import { formatMoney, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../../components/icons';
import { Modal } from '../../../components/modal';
import { ProductImage } from '../../../components/product-image';
import { paths } from '../../../config/paths';
import {
  CartGroupHead,
  groupTitle,
  SEPARATE_ORDERS_TEXT,
} from '../../../components/cart-group-head';
import { cartKey, useCartItems, type CartItem } from '../../../stores/cart-store';
import { cartGroups } from '../../../stores/cart-groups';
import { LineUnit, lineTotal, linesTotalAt } from '../../../components/line-unit';
import { useCartPriceList } from '../../../components/organisation-prices';
import { useUiStore } from '../../../stores/ui-store';
import { DeleteConfirm } from './delete-confirm';
import { QuantityControl } from './quantity-control';

/** Side panel 'Shopping Cart'. */
export function CartDrawer() {
  const open = useUiStore((s) => s.cartOpen);
  const setOpen = useUiStore((s) => s.setCartOpen);
  const items = useCartItems();
  const list = useCartPriceList();
  const total = linesTotalAt(items, list);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<string | null>(null);

  const groups = cartGroups(items);
  const line = (item: CartItem) => (
    <li key={cartKey(item)} className="cart-line">
      <ProductImage
        src={item.productImage}
        images={item.productImages}
        alt={item.productName}
        width={64}
        height={64}
        sizes="64px"
      />
      <div className="cart-line-body">
        <strong>{item.productName}</strong>
        <span className="muted clamp">{item.productDescription}</span>
        <LineUnit item={item} list={list} />
        <span>{formatMoney(lineTotal(item, list))}</span>
        <QuantityControl
          id={cartKey(item)}
          quantity={item.quantity}
          name={item.productName}
          min={item.unit?.minQuantity}
          step={item.unit?.step}
        />
      </div>
      <button
        type="button"
        className="icon-btn"
        aria-label={`Remove ${item.productName}`}
        onClick={() => setDeleting(cartKey(item))}
      >
        <Icon name="trash" size={18} />
      </button>
    </li>
  );

  const go = (to: string) => {
    setOpen(false);
    window.scrollTo({ top: 0 });
    navigate(to);
  };

  return (
    <>
      <Modal open={open} onClose={() => setOpen(false)} title="Shopping Cart" variant="drawer">
        {items.length === 0 ? (
          <p className="state">{STOREFRONT_MESSAGES.cartEmpty}</p>
        ) : (
          <>
            {groups.length > 1 && (
              <p className="notice small" role="note">
                {SEPARATE_ORDERS_TEXT}
              </p>
            )}
            {groups.map((g) => (
              <section key={g.key} aria-label={groupTitle(g)}>
                <CartGroupHead group={g} alone={groups.length === 1} />
                <ul className="cart-lines">{g.items.map(line)}</ul>
              </section>
            ))}
            <div className="drawer-foot">
              <p className="subtotal">
                <span>Subtotal</span> <strong>{formatMoney(total)}</strong>
              </p>
              <div className="row-actions">
                <button type="button" className="btn btn-outline" onClick={() => go(paths.cart)}>
                  View Cart
                </button>
                <button
                  type="button"
                  className="btn"
                  onClick={() => go(paths.checkoutOf(groups[0]?.key ?? ''))}
                >
                  Checkout
                </button>
              </div>
            </div>
          </>
        )}
      </Modal>
      <DeleteConfirm itemId={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
