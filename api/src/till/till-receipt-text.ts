import { formatMoney, SHOP_IDENTITY, type TillSaleView } from '@spc/shared-contracts';

const PAID_BY = { cash: 'cash', 'mpesa-express': 'M-Pesa', 'mpesa-code': 'M-Pesa' } as const;
const NOT_RECEIVED = {
  received: '',
  waiting: ' (not confirmed yet)',
  failed: ' (not received)',
} as const;

/** A gate sale's SMS receipt: what was bought, paid and given back, and its eTIMS number. */
export function receiptText(sale: TillSaleView): string {
  const items = sale.lines.map((l) => `${l.quantity} x ${l.name} (${l.unitName})`).join(', ');
  // A payment not received yet (an M-Pesa code taken offline and not confirmed, issue 47; a
  // prompt not answered) is never told to the buyer as paid.
  const paid = sale.payments
    .map(
      (p) =>
        `${formatMoney(p.amount)} ${PAID_BY[p.method]}${p.code ? ` ${p.code}` : ''}${NOT_RECEIVED[p.state]}`,
    )
    .join(' + ');
  const change = sale.change > 0 ? `, change ${formatMoney(sale.change)}` : '';
  const etims = sale.etims ? `eTIMS ${sale.etims.invoiceNumber}` : 'eTIMS pending';
  return `${SHOP_IDENTITY.name} receipt ${sale.purchaseNumber}: ${items}. Total ${formatMoney(sale.total)}, paid ${paid}${change}. ${etims}. Thank you!`;
}
