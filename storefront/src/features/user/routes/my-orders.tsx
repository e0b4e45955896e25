import {
  checkOrderAction,
  formatDate,
  formatMoney,
  ORDER_DOCUMENT_TEXTS,
  STOREFRONT_MESSAGES,
  type OrderStatus,
  type PaymentStatus,
  lineItemName,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { BookingFacts } from '../../../components/booking-facts';
import { factsOfOrder } from '../../../lib/bookings';
import { Pagination } from '../../../components/pagination';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';
import { useCancelOrder } from '../api/cancel-order';
import { useMyOrders } from '../api/get-my-orders';
import { askTheShopPath, hasMoneyIn } from '../components/ask-the-shop';
import type { Order } from '../../../lib/types';
import '../user.css';

type CancelCheck = ReturnType<typeof checkOrderAction>;

/**
 * Non-managers may only request cancellation; the reason shows when it is not allowed. Once money
 * came in on a pending order, the shop cancels it: the customer is sent to ask it instead.
 */
function CancelButton({
  order,
  check,
  cancel,
}: {
  order: Order;
  check: CancelCheck;
  cancel: ReturnType<typeof useCancelOrder>;
}) {
  // An accepted quotation's order is its organisation's: the shop cancels it (its page says so).
  if (order.quotation) return null;
  if (order.orderStatus === 'Pending' && hasMoneyIn(order))
    return (
      <Link className="btn btn-sm btn-outline" to={askTheShopPath(order.purchaseNumber)}>
        Ask the shop to cancel
      </Link>
    );
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline"
      disabled={!check.allowed || cancel.isPending}
      title={check.allowed ? undefined : check.reason}
      onClick={() =>
        cancel.mutate(order._id, {
          onSuccess: (res) => toast.success(res.message),
          onError: (e) =>
            toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.somethingWentWrong),
        })
      }
    >
      Cancel order
    </button>
  );
}

/** The receipt of a paid order, as a PDF; unpaid orders have none yet. */
function ReceiptButton({
  order,
}: {
  order: { _id: string; purchaseNumber: string; paymentStatus: string };
}) {
  const [busy, setBusy] = useState(false);
  if (order.paymentStatus !== 'Paid') return null;
  return (
    <button
      type="button"
      className="btn btn-sm btn-light"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        fetchPdf(documentUrl(`/api/orders/${order._id}/receipt.pdf`), true)
          .then((blob) => saveBlob(blob, `receipt-${order.purchaseNumber}.pdf`))
          .catch((e: Error) => toast.error(e.message))
          .finally(() => setBusy(false));
      }}
    >
      {ORDER_DOCUMENT_TEXTS.downloadReceipt}
    </button>
  );
}

export function MyOrdersRoute() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useMyOrders(page);
  const cancel = useCancelOrder();
  const rows = (data?.orders ?? []).map((o, i) => ({
    o,
    n: (page - 1) * 10 + i + 1,
    check: checkOrderAction(
      {
        orderStatus: o.orderStatus as OrderStatus,
        paymentStatus: o.paymentStatus as PaymentStatus,
      },
      'cancel',
      'customer',
    ),
  }));
  return (
    <div className="page">
      <div className="page-head">
        <h1>My Orders</h1>
        <Link to={paths.shop} className="btn">
          Place Order
        </Link>
      </div>
      {isPending ? (
        <Loading />
      ) : isError ? (
        <ErrorState />
      ) : data.orders.length === 0 ? (
        <Empty message={STOREFRONT_MESSAGES.noOrders} />
      ) : (
        <>
          {/* A phone gets one card per order, status and cancellation in view; wider screens the table. */}
          <ul className="order-cards" aria-label="Orders">
            {rows.map(({ o, n, check }) => (
              <li key={o._id} className="order-card" data-testid="order-card">
                <div className="order-card-head">
                  <Link to={paths.myOrder(o._id)}>
                    <strong>{o.purchaseNumber}</strong>
                  </Link>
                  <span className="status-pill">{o.orderStatus}</span>
                </div>
                <p className="muted small">
                  #{n} · {formatDate(o.orderDate)} · {o.customerName}
                </p>
                <p className="order-card-products">
                  {o.products
                    .map((p) => lineItemName({ productName: p.productName, unit: p.unit }))
                    .join(', ')}
                </p>
                {o.booking && <BookingFacts booking={factsOfOrder(o.booking)} />}
                <dl className="order-card-facts">
                  <dt>Payment status</dt>
                  <dd>{o.paymentStatus}</dd>
                  <dt>Fulfillment status</dt>
                  <dd>{o.fulfillmentStatus}</dd>
                  <dt>Subtotal</dt>
                  <dd>{formatMoney(o.subtotal)}</dd>
                  <dt>Delivery</dt>
                  <dd>
                    <DeliveryText order={o} />
                  </dd>
                  <dt>Total</dt>
                  <dd>{formatMoney(o.totalAmount)}</dd>
                </dl>
                <div className="row-actions">
                  <CancelButton order={o} check={check} cancel={cancel} />
                  <ReceiptButton order={o} />
                </div>
                {!check.allowed && <p className="muted small">{check.reason}</p>}
              </li>
            ))}
          </ul>
          <div
            className="table-wrap orders-table"
            tabIndex={0}
            role="region"
            aria-label="Orders table"
          >
            <table>
              <thead>
                <tr>
                  <th>#</th>
                  <th>Order date</th>
                  <th>Order number</th>
                  <th>Customer name</th>
                  <th>Products</th>
                  <th>Payment status</th>
                  <th>Order status</th>
                  <th>Subtotal</th>
                  <th>Fulfillment status</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ o, n, check }) => (
                  <tr key={o._id}>
                    <td>{n}</td>
                    <td>{formatDate(o.orderDate)}</td>
                    <td>
                      <Link to={paths.myOrder(o._id)}>{o.purchaseNumber}</Link>
                    </td>
                    <td className="wrap">{o.customerName}</td>
                    <td className="wrap">
                      {o.products
                        .map((p) => lineItemName({ productName: p.productName, unit: p.unit }))
                        .join(', ')}
                      {o.booking && <BookingFacts booking={factsOfOrder(o.booking)} />}
                      {/* The delivery rides in the wrapping cell: the table keeps the spec's columns. */}
                      <br />
                      <span className="muted small">
                        Delivery: <DeliveryText order={o} /> · total {formatMoney(o.totalAmount)}
                      </span>
                    </td>
                    <td>{o.paymentStatus}</td>
                    <td>{o.orderStatus}</td>
                    <td>{formatMoney(o.subtotal)}</td>
                    <td>{o.fulfillmentStatus}</td>
                    <td>
                      <div className="row-actions">
                        <CancelButton order={o} check={check} cancel={cancel} />
                        <ReceiptButton order={o} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {data && <Pagination page={page} totalPages={data.totalPages} onChange={setPage} />}
    </div>
  );
}

/** "Nairobi · KES 300 · by 25/11/2026" or "Collect at the nursery · Free · from 24/11/2026". */
function DeliveryText({
  order,
}: {
  order: {
    shippingFee: number;
    estimatedDeliveryDate: string;
    delivery: { method: 'delivery' | 'collection'; zoneName: string };
  };
}) {
  const collect = order.delivery.method === 'collection';
  return (
    <>
      {order.delivery.zoneName} ·{' '}
      {order.shippingFee === 0 ? 'Free' : formatMoney(order.shippingFee)} ·{' '}
      {collect ? 'from' : 'by'} {formatDate(order.estimatedDeliveryDate)}
    </>
  );
}
