import {
  deliveryAddressText,
  deliveryChoiceText,
  deliveryFeeText,
  formatDateTime,
  formatMoney,
  ORDER_DOCUMENT_TEXTS,
  ORDER_STATUS_WORDS,
  STOREFRONT_MESSAGES,
  type OrderDeliveryChoice,
  type OrderStatus,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorState, Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';
import { useCancelOrder } from '../api/cancel-order';
import { useMyOrder } from '../api/get-my-order';
import '../user.css';

/** /user/my-orders/:id: one of the customer's orders, without the shop's internal parts. */
export function MyOrderDetailRoute() {
  const { id = '' } = useParams();
  const { data, isPending, isError, error } = useMyOrder(id);
  const cancel = useCancelOrder();
  const [downloading, setDownloading] = useState(false);
  if (isPending) return <Loading />;
  if (isError)
    return (
      <div className="page narrow">
        <Link to={paths.myOrders}>← My Orders</Link>
        {error instanceof ApiError && error.status === 404 ? (
          <p className="state state-error" role="alert">
            No order with this id
          </p>
        ) : (
          <ErrorState />
        )}
      </div>
    );
  const { order, timeline, actions, documents } = data;
  const g = order.guestInfo;
  const p = order.paymentDetails;
  const delivery = (order as { delivery?: OrderDeliveryChoice | null }).delivery ?? null;
  const choice = deliveryChoiceText(delivery);
  const cancelCheck = actions.find((a) => a.action === 'cancel');

  const downloadReceipt = async () => {
    setDownloading(true);
    try {
      const blob = await fetchPdf(documentUrl(`/api/orders/${order._id}/receipt.pdf`), true);
      saveBlob(blob, `receipt-${order.purchaseNumber}.pdf`);
    } catch (e) {
      toast.error((e as Error).message);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="page narrow order-detail">
      <Link to={paths.myOrders}>← My Orders</Link>
      <div className="page-head">
        <h1>Order {order.purchaseNumber}</h1>
        <span className="status-pill">
          {ORDER_STATUS_WORDS[order.orderStatus as OrderStatus] ?? order.orderStatus}
        </span>
      </div>
      <p className="muted small">Placed {formatDateTime(order.orderDate)}</p>

      <section className="order-card">
        <h2>Items</h2>
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Items">
          <table>
            <thead>
              <tr>
                <th>Product</th>
                <th>Quantity</th>
                <th>Unit price</th>
                <th>Line total</th>
              </tr>
            </thead>
            <tbody>
              {order.products.map((l, i) => (
                <tr key={i}>
                  <td className="wrap">{l.productName}</td>
                  <td>{l.quantity}</td>
                  <td>{formatMoney(l.unitPrice)}</td>
                  <td>{formatMoney(l.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl className="order-card-facts">
          <dt>Subtotal</dt>
          <dd>{formatMoney(order.subtotal)}</dd>
          <dt>{choice ? `Delivery (${choice})` : 'Delivery'}</dt>
          <dd>{deliveryFeeText(order.shippingFee)}</dd>
          <dt>Total</dt>
          <dd>
            <strong>{formatMoney(order.totalAmount)}</strong>
          </dd>
        </dl>
      </section>

      <section className="order-card">
        <h2>Delivery</h2>
        <p>
          {g.fullName} · {g.phoneNumber}
          <br />
          {deliveryAddressText(g)}
        </p>
      </section>

      <section className="order-card">
        <h2>Payment</h2>
        <dl className="order-card-facts">
          <dt>Payment status</dt>
          <dd>{order.paymentStatus}</dd>
          {order.paymentMethod && (
            <>
              <dt>Method</dt>
              <dd>{order.paymentMethod === 'Mpesa' ? 'M-Pesa' : order.paymentMethod}</dd>
            </>
          )}
          {p?.transactionCode && (
            <>
              <dt>M-Pesa receipt code</dt>
              <dd>{p.transactionCode}</dd>
            </>
          )}
          {(p?.timePaid ?? order.paidAt) && (
            <>
              <dt>Paid on</dt>
              <dd>{formatDateTime(p?.timePaid ?? order.paidAt)}</dd>
            </>
          )}
        </dl>
        <button
          type="button"
          className="btn btn-sm"
          disabled={!documents.receipt.available || downloading}
          onClick={() => void downloadReceipt()}
        >
          {downloading ? 'Downloading...' : ORDER_DOCUMENT_TEXTS.downloadReceipt}
        </button>
        {!documents.receipt.available && <p className="muted small">{documents.receipt.reason}</p>}
      </section>

      <section className="order-card">
        <h2>Timeline</h2>
        <ol className="order-timeline">
          {timeline.map((e, i) => (
            <li key={i}>
              <strong>{e.step}</strong> <span className="muted small">{formatDateTime(e.at)}</span>
              <br />
              <span className="small">{e.text}</span>
            </li>
          ))}
        </ol>
      </section>

      {cancelCheck && (
        <section className="order-card">
          <button
            type="button"
            className="btn btn-sm btn-outline"
            disabled={!cancelCheck.allowed || cancel.isPending}
            onClick={() =>
              cancel.mutate(order._id, {
                onSuccess: (res) => toast.success(res.message),
                onError: (e) =>
                  toast.error(
                    e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.somethingWentWrong,
                  ),
              })
            }
          >
            Cancel order
          </button>
          {!cancelCheck.allowed && <p className="muted small">{cancelCheck.reason}</p>}
        </section>
      )}
    </div>
  );
}
