import { formatTotal } from '@spc/shared-contracts';
import { PaginationControl } from '../../../components/pagination-control';

interface OrdersPage {
  totalOrders: number;
  /** A search's count stopped at its bound: more orders match, and pages follow the last counted. */
  totalIsLowerBound: boolean;
  totalPages: number;
}

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
  const total = answer?.totalOrders ?? 0;
  const more = answer?.totalIsLowerBound ?? false;
  return (
    <PaginationControl
      page={page}
      totalPages={answer?.totalPages ?? 0}
      more={more}
      total={answer && `${formatTotal(total, more)} ${total === 1 && !more ? 'order' : 'orders'}`}
      onChange={onChange}
    />
  );
}
