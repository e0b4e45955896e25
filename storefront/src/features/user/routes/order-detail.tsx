import {
  bookingTakesMoney,
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
  lineItemName,
} from '@spc/shared-contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { BookingFacts } from '../../../components/booking-facts';
import { ErrorState, Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { bookingPayLabel, factsOfOrder } from '../../../lib/bookings';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';
import { errorCode } from '@spc/shared-contracts/web-client';
import { useCancelOrder } from '../api/cancel-order';
import { useMyOrder } from '../api/get-my-order';
import { userKeys } from '../api/get-profile';
import { AskTheShop, hasMoneyIn } from '../components/ask-the-shop';
import { OrderMoneySection } from '../components/order-money';

import '../user.css';

// Its own chunk, loaded with the order: the order page stays within its size budget.
const PayByMpesa = lazy(() =>
  import('../../../components/pay-by-mpesa').then((m) => ({ default: m.PayByMpesa })),
);
// Its own chunk, loaded only for an order with eTIMS documents.
const OrderEtims = lazy(() =>
  import('../../../components/etims-documents').then((m) => ({ default: m.EtimsDocuments })),
);

/** /user/my-orders/:id: one of the customer's orders, without the shop's internal parts. */
export function MyOrderDetailRoute() {
  const { id = '' } = useParams();
  const { data, isPending, isError, error } = useMyOrder(id);
  const queryClient = useQueryClient();
  const cancel = useCancelOrder();
  const [downloading, setDownloading] = useState(false);
  // The API's own words when it refused a cancel because money was received meanwhile.
  const [askRefusal, setAskRefusal] = useState<string>();
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
  const { order, timeline, actions, documents, money, etims } = data;
  const g = order.guestInfo;
  const p = order.paymentDetails;
  const delivery = (order as { delivery?: OrderDeliveryChoice | null }).delivery ?? null;
  const choice = deliveryChoiceText(delivery);
  const cancelCheck = actions.find((a) => a.action === 'cancel');
  // With money received on a pending order, cancelling is the shop's act: the customer asks it.
  const askTheShop =
    !!askRefusal || (order.orderStatus === 'Pending' && hasMoneyIn(order, money.received));
  const booking = order.booking ?? null;
  const payable = booking
    ? bookingTakesMoney(booking.state) && order.orderStatus !== 'Cancelled'
    : order.orderStatus === 'Pending' && order.paymentStatus === 'Pending';

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

      {order.quotation && (
        <section className="order-card" aria-labelledby="quotation-title">
          <h2 id="quotation-title">From a quotation</h2>
          <p>
            LPO <strong>{order.quotation.lpoNumber}</strong> ·{' '}
            <Link to={`${paths.myOrganisation}?quotation=${order.quotation.quotationId}`}>
              The quotation
            </Link>
          </p>
          <p className="muted small">
            {order.onAccount
              ? 'On account: your organisation pays it by its invoice.'
              : 'Paid up front, like any order.'}
          </p>
          {order.inTranches && (
            <p>
              Delivered in loads to your planting sites:{' '}
              <Link to={`${paths.myOrganisation}?order=${order._id}`}>its deliveries</Link>
            </p>
          )}
        </section>
      )}

      {booking && (
        <section className="order-card" aria-labelledby="booking-title">
          <h2 id="booking-title">Booking</h2>
          <BookingFacts booking={factsOfOrder(booking)} />
        </section>
      )}

      <section className="order-card">
        <h2>Items</h2>
        {/* A receipt: each line's name, then quantity × unit price and the line total on one row;
            the totals below with their amounts kept whole at the right edge. */}
        <div role="region" aria-label="Items">
          <ul className="receipt-lines">
            {order.products.map((l, i) => (
              <li key={i}>
                <span className="receipt-name">{lineItemName(l)}</span>
                <span className="receipt-row">
                  <span className="muted">
                    {l.quantity} × {formatMoney(l.unitPrice)}
                  </span>
                  <span className="amount">{formatMoney(l.lineTotal)}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <dl className="receipt-totals">
          <div className="receipt-row">
            <dt>Subtotal</dt>
            <dd className="amount">{formatMoney(order.subtotal)}</dd>
          </div>
          <div className="receipt-row">
            <dt>{choice ? `Delivery (${choice})` : 'Delivery'}</dt>
            <dd className="amount">{deliveryFeeText(order.shippingFee)}</dd>
          </div>
          <div className="receipt-row total">
            <dt>Total</dt>
            <dd className="amount">{formatMoney(order.totalAmount)}</dd>
          </div>
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
          <dd>
            {order.paymentStatus === 'Pending' && order.amountPaid > 0
              ? `Part-paid: ${formatMoney(order.amountPaid)} paid, ${formatMoney(order.amountOutstanding)} to pay`
              : order.paymentStatus}
          </dd>
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
          {order.kraPin && (
            <>
              <dt>Tax invoice to KRA PIN</dt>
              <dd data-testid="kra-pin">{order.kraPin}</dd>
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

      {etims.length > 0 && (
        <Suspense fallback={<p className="muted small">Loading the eTIMS tax invoice...</p>}>
          <OrderEtims documents={etims} />
        </Suspense>
      )}

      <OrderMoneySection money={money} />

      <Suspense fallback={null}>
        <PayByMpesa
          purchaseNumber={order.purchaseNumber}
          phoneNumber={g.phoneNumber}
          open={payable}
          onPaid={() => void queryClient.invalidateQueries({ queryKey: userKeys.allOrders })}
          label={booking ? bookingPayLabel(booking) : undefined}
        />
      </Suspense>

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
        <section className="order-card" aria-label="Cancel this order">
          {order.quotation ? (
            // An accepted quotation's order is its organisation's: the shop cancels it, asked in
            // the quotation's messages.
            <div className="ask-the-shop" data-testid="ask-the-shop">
              <p>{cancelCheck.reason}</p>
              <Link
                className="btn btn-sm btn-outline"
                to={`${paths.myOrganisation}?quotation=${order.quotation.quotationId}`}
              >
                Write to the shop
              </Link>
            </div>
          ) : askTheShop ? (
            <AskTheShop
              purchaseNumber={order.purchaseNumber}
              held={money.refundable > 0 ? money.refundable : order.amountPaid}
              message={askRefusal}
            />
          ) : (
            <>
              <button
                type="button"
                className="btn btn-sm btn-outline"
                disabled={!cancelCheck.allowed || cancel.isPending}
                onClick={() =>
                  cancel.mutate(order._id, {
                    onSuccess: (res) => toast.success(res.message),
                    onError: (e) =>
                      errorCode(e) === 'ASK_THE_SHOP'
                        ? setAskRefusal(e.message)
                        : toast.error(
                            e instanceof ApiError
                              ? e.message
                              : STOREFRONT_MESSAGES.somethingWentWrong,
                          ),
                  })
                }
              >
                {cancel.isPending ? 'Cancelling...' : 'Cancel order'}
              </button>
              {!cancelCheck.allowed && <p className="muted small">{cancelCheck.reason}</p>}
            </>
          )}
        </section>
      )}
    </div>
  );
}
