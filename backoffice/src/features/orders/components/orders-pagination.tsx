import { PaginationControl } from '../../../components/pagination-control';

interface OrdersPage {
  totalOrders: number;
  /** A search's count stopped at its bound: more orders match, and pages follow the last counted. */
  totalIsLowerBound: boolean;
  totalPages: number;
}

const ORDERS = { one: 'order', many: 'orders' };

/** An orders list's pages with its total: "37 orders", or "1,000+ orders" for a search's bound. */
export function OrdersPagination({
  page,
  answer,
  onChange,
}: {
  page: number;
  answer: OrdersPage | undefined;
  onChange: (page: number) => void;
}) {
  return (
    <PaginationControl
      page={page}
      totalPages={answer?.totalPages ?? 0}
      total={answer && { total: answer.totalOrders, totalIsLowerBound: answer.totalIsLowerBound }}
      noun={ORDERS}
      onChange={onChange}
    />
  );
}
