import { formatMoney } from '@spc/shared-contracts';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';

/** The contact page with the subject filled in: which order to cancel and refund. */
export const askTheShopPath = (purchaseNumber: string) =>
  `${paths.contact}?subject=${encodeURIComponent(`Cancel order ${purchaseNumber} and refund me`)}`;

/**
 * In place of Cancel once money was received on a pending order: cancelling it is the shop's to do,
 * and the shop refunds the customer. `message` is the API's own refusal when a cancel was tried.
 */
export function AskTheShop({
  purchaseNumber,
  held,
  message,
}: {
  purchaseNumber: string;
  /** KES received on the order and not given back: what the shop will refund. */
  held: number;
  message?: string;
}) {
  return (
    <div className="ask-the-shop" data-testid="ask-the-shop">
      {message ? (
        <p role="alert" className="notice notice-error">
          {message}
        </p>
      ) : (
        <p>
          {held > 0
            ? `We have received ${formatMoney(held)} on this order, so the shop cancels it for you.`
            : 'We have received money on this order, so the shop cancels it for you.'}{' '}
          Ask the shop: it will cancel the order and refund you.
        </p>
      )}
      <Link className="btn btn-sm btn-outline" to={askTheShopPath(purchaseNumber)}>
        Ask the shop to cancel
      </Link>
    </div>
  );
}

/** Whether money is on the order (the API's rule for who may cancel it). */
export const hasMoneyIn = (order: { paymentStatus: string; amountPaid: number }, received = 0) =>
  order.paymentStatus === 'Paid' || order.amountPaid > 0 || received > 0;
