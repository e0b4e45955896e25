import {
  checkOrderAction,
  formatDate,
  formatMoney,
  STOREFRONT_MESSAGES,
  type OrderStatus,
  type PaymentStatus,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Pagination } from '../../../components/pagination';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useCancelOrder } from '../api/cancel-order';
import { useMyOrders } from '../api/get-my-orders';

export function MyOrdersRoute() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useMyOrders(page);
  const cancel = useCancelOrder();
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
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Orders">
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
              {data.orders.map((o, i) => {
                const check = checkOrderAction(
                  {
                    orderStatus: o.orderStatus as OrderStatus,
                    paymentStatus: o.paymentStatus as PaymentStatus,
                  },
                  'cancel',
                  'customer',
                );
                return (
                  <tr key={o._id}>
                    <td>{(page - 1) * 10 + i + 1}</td>
                    <td>{formatDate(o.orderDate)}</td>
                    <td>{o.purchaseNumber}</td>
                    <td>{o.customerName}</td>
                    <td>{o.products.map((p) => p.productName).join(', ')}</td>
                    <td>{o.paymentStatus}</td>
                    <td>{o.orderStatus}</td>
                    <td>{formatMoney(o.subtotal)}</td>
                    <td>{o.fulfillmentStatus}</td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline"
                        disabled={!check.allowed || cancel.isPending}
                        title={check.allowed ? undefined : check.reason}
                        onClick={() =>
                          cancel.mutate(o._id, {
                            onSuccess: (res) => toast.success(res.message),
                            onError: (e) =>
                              toast.error(
                                e instanceof ApiError
                                  ? e.message
                                  : STOREFRONT_MESSAGES.somethingWentWrong,
                              ),
                          })
                        }
                      >
                        Cancel order
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pagination page={page} totalPages={data.totalPages} onChange={setPage} />}
    </div>
  );
}
