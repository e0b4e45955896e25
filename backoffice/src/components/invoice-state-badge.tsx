import { Badge } from '@mantine/core';
import type { InvoiceState } from '@spc/shared-contracts';

const COLOURS: Record<InvoiceState, string> = { Open: 'blue', Paid: 'green', Credited: 'gray' };

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * An invoice's state; an open invoice past its due date reads "Overdue" in red with its days
 * (the invoices page, an invoice, an order's invoices).
 */
export function InvoiceStateBadge({
  invoice,
}: {
  invoice: { state: InvoiceState; overdue: boolean; daysOverdue: number };
}) {
  const overdue = invoice.state === 'Open' && invoice.overdue;
  return (
    <Badge
      color={overdue ? 'red' : COLOURS[invoice.state]}
      variant="light"
      tt="none"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {overdue ? `Overdue · ${days(invoice.daysOverdue)}` : invoice.state}
    </Badge>
  );
}
