import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { Modal } from '../../../components/modal';
import { useCartStore } from '../../../stores/cart-store';

/** 'Are you sure removing this item...' with Yes / No. */
export function DeleteConfirm({ itemId, onClose }: { itemId: string | null; onClose: () => void }) {
  const remove = useCartStore((s) => s.removeFromCart);
  return (
    <Modal open={itemId !== null} onClose={onClose} title="Remove item">
      <p>{STOREFRONT_MESSAGES.deleteCartItemConfirm}</p>
      <div className="row-actions">
        <button
          type="button"
          className="btn"
          onClick={() => {
            if (itemId) remove(itemId);
            onClose();
          }}
        >
          Yes
        </button>
        <button type="button" className="btn btn-outline" onClick={onClose}>
          No
        </button>
      </div>
    </Modal>
  );
}
