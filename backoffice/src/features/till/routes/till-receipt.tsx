import { Anchor, Button, Group, SegmentedControl } from '@mantine/core';
import {
  formatDateTime,
  formatMoney,
  SHOP_IDENTITY,
  TILL_PAYMENT_LABELS,
  type TillSaleView,
} from '@spc/shared-contracts';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useSale } from '../api/sales';
import { TillQueryState } from '../components/till-query-state';

export type Roll = '58' | '80';

/**
 * Only the receipt prints, on a 58 mm or an 80 mm roll (the printer's paper is set by @page, which
 * cannot depend on a class, so it is written per choice); the page around it is left out.
 */
export function receiptCss(roll: Roll): string {
  const width = roll === '58' ? 48 : 72;
  return `
@page { size: ${roll}mm auto; margin: 3mm; }
.till-receipt { width: ${width}mm; margin: 0 auto; padding: 3mm; background: #fff; color: #111;
  font-family: Helvetica, Arial, sans-serif; font-size: ${roll === '58' ? 8 : 9}pt; box-shadow: 0 0 0 1px #dde; }
.till-receipt h1 { font-size: 1.3em; margin: 0.2em 0; text-align: center; }
.till-receipt .center { text-align: center; }
.till-receipt table { width: 100%; border-collapse: collapse; margin: 0.4em 0; }
.till-receipt td { padding: 0.15em 0; vertical-align: top; }
.till-receipt .num { text-align: right; white-space: nowrap; }
.till-receipt .rule td { border-top: 1px dashed #111; }
.till-receipt .grand td { font-weight: 700; font-size: 1.15em; }
.till-receipt .muted { color: #444; }
.till-receipt .wrap { overflow-wrap: anywhere; }
@media print {
  html, body, .till-receipt-page { background: #fff !important; padding: 0 !important; min-height: 0 !important; }
  .no-print { display: none !important; }
  .till-receipt { box-shadow: none !important; padding: 0 !important; }
}`;
}

function Lines({ sale }: { sale: TillSaleView }) {
  return (
    <table>
      <tbody>
        {sale.lines.map((l, i) => (
          <tr key={i}>
            <td>
              {l.name}, {l.unitName}
              <br />
              {l.quantity} × {formatMoney(l.unitPrice)}
            </td>
            <td className="num">{formatMoney(l.lineTotal)}</td>
          </tr>
        ))}
        <tr className="rule grand">
          <td>Total</td>
          <td className="num">{formatMoney(sale.total)}</td>
        </tr>
        {sale.payments.map((p, i) => (
          <tr key={`p${i}`}>
            <td>
              {TILL_PAYMENT_LABELS[p.method]}
              {p.code ? ` ${p.code}` : ''}
              {p.given !== null && p.method === 'cash' ? ` (given ${formatMoney(p.given)})` : ''}
            </td>
            <td className="num">{formatMoney(p.amount)}</td>
          </tr>
        ))}
        <tr>
          <td>Change</td>
          <td className="num">{formatMoney(sale.change)}</td>
        </tr>
        {sale.refunded > 0 && (
          <tr>
            <td>Refunded</td>
            <td className="num">{formatMoney(sale.refunded)}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** The receipt itself: the shop, the sale, the clerk and the time, and its eTIMS signature. */
export function TillReceipt({
  sale,
  roll,
  offlineNote,
}: {
  sale: TillSaleView;
  roll: Roll;
  /** A sale made offline, not sent yet (issue 47): this note stands for its receipt number. */
  offlineNote?: string;
}) {
  return (
    <article className="till-receipt" aria-label="Receipt" data-roll={roll}>
      <h1>{SHOP_IDENTITY.name}</h1>
      <div className="center muted">{SHOP_IDENTITY.place}</div>
      <div className="center">
        {offlineNote ? (
          <strong data-testid="receipt-offline">{offlineNote}</strong>
        ) : (
          <>
            Receipt <strong>{sale.purchaseNumber}</strong>
          </>
        )}
        <br />
        {formatDateTime(sale.at)}
        <br />
        Served by {sale.sellerName}
      </div>
      {sale.state === 'voided' && (
        <div className="center">
          <strong>VOIDED</strong>
        </div>
      )}
      <Lines sale={sale} />
      <div className="center" data-testid="receipt-etims">
        {sale.etims ? (
          <>
            KRA eTIMS <strong>{sale.etims.invoiceNumber}</strong>
            <br />
            {formatDateTime(sale.etims.signedAt)}
            <br />
            <a className="wrap muted" href={sale.etims.qrUrl}>
              {sale.etims.qrUrl}
            </a>
          </>
        ) : (
          <strong>eTIMS pending</strong>
        )}
      </div>
      <p className="center muted">Thank you for buying from {SHOP_IDENTITY.name}.</p>
    </article>
  );
}

/**
 * The frame of a receipt page: back to the till, the paper roll, "Print" (off until there is a
 * receipt), and the print rules for the roll; the receipt (or why there is none) inside.
 */
export function ReceiptPage({
  canPrint,
  children,
}: {
  canPrint: boolean;
  children: (roll: Roll) => ReactNode;
}) {
  const [roll, setRoll] = useState<Roll>('80');
  return (
    <div
      className="till-receipt-page"
      style={{ padding: 16, background: '#f1f3f1', minHeight: '100vh' }}
    >
      <style data-testid="receipt-print-css">{receiptCss(roll)}</style>
      <Group className="no-print" justify="space-between" mb="md" wrap="wrap">
        <Anchor component={Link} to={paths.till}>
          ← Back to the till
        </Anchor>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label="Paper roll"
            size="md"
            value={roll}
            onChange={(v) => setRoll(v as Roll)}
            data={[
              { value: '58', label: '58 mm' },
              { value: '80', label: '80 mm' },
            ]}
          />
          <Button size="md" onClick={() => window.print()} disabled={!canPrint}>
            Print
          </Button>
        </Group>
      </Group>
      {children(roll)}
    </div>
  );
}

/** /till/receipt/:orderId: the gate receipt to print from the tablet's browser. */
export function TillReceiptRoute() {
  const { orderId = '' } = useParams();
  const query = useSale(orderId);
  return (
    <ReceiptPage canPrint={!!query.data}>
      {(roll) =>
        query.data ? (
          <TillReceipt sale={query.data} roll={roll} />
        ) : (
          <TillQueryState
            query={query}
            isEmpty={false}
            emptyText=""
            errorTitle="The receipt could not be loaded"
          />
        )
      }
    </ReceiptPage>
  );
}
