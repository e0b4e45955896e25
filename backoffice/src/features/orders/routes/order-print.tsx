import { Anchor, Button, Group, SegmentedControl, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  BACKOFFICE_MESSAGES,
  deliveryAddressText,
  deliveryChoiceText,
  deliveryFeeText,
  ETIMS_KIND_LABELS,
  ETIMS_TEXTS,
  formatDate,
  formatDateTime,
  formatKes,
  formatMoney,
  ORDER_DOCUMENT_TEXTS as T,
  type OrderDocument,
  type Role,
  lineItemName,
  lineSeedlings,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { downloadPdf } from '../../../lib/pdf';
import { deliveryOf, useOrderDetail, type OrderDetail } from '../api/get-order-detail';

type Paper = 'a4' | 'thermal';

/**
 * The page's print rules: only the document prints, on A4 or on an 80 mm thermal roll (the
 * printer's paper is set by @page, which cannot depend on a class, so it is written per choice).
 */
function printCss(paper: Paper): string {
  const page = paper === 'a4' ? 'size: A4; margin: 15mm;' : 'size: 80mm auto; margin: 3mm;';
  return `
@page { ${page} }
.print-doc { background: #fff; color: #111; margin: 0 auto; font-family: Helvetica, Arial, sans-serif; }
.print-doc.a4 { max-width: 180mm; padding: 12mm; font-size: 11pt; box-shadow: 0 0 0 1px #dde; }
.print-doc.thermal { width: 72mm; padding: 3mm; font-size: 9pt; box-shadow: 0 0 0 1px #dde; }
.print-doc h1 { font-size: 1.5em; margin: 0.4em 0; }
.print-doc .shop { font-weight: 700; font-size: 1.2em; color: #2f7d32; }
.print-doc table { width: 100%; border-collapse: collapse; margin: 0.6em 0; }
.print-doc th, .print-doc td { text-align: left; padding: 0.25em 0.2em; border-bottom: 1px solid #ccc; vertical-align: top; }
.print-doc .num { text-align: right; white-space: nowrap; }
.print-doc .totals td { border: none; }
.print-doc .grand td { font-weight: 700; font-size: 1.1em; border-top: 2px solid #111; }
.print-doc .muted { color: #555; }
.print-doc .stamp { display: inline-block; border: 3px solid #c62828; color: #c62828; font-weight: 800;
  font-size: 1.8em; letter-spacing: 0.1em; padding: 0.1em 0.5em; border-radius: 6px; transform: rotate(-8deg); }
.print-doc.thermal .stamp { font-size: 1.3em; }
.print-doc .signature { margin-top: 3em; border-top: 1px solid #111; padding-top: 0.3em; max-width: 110mm; }
@media print {
  body, html { background: #fff !important; }
  .no-print { display: none !important; }
  .print-doc { box-shadow: none !important; padding: 0 !important; }
}`;
}

function Receipt({ detail }: { detail: OrderDetail }) {
  const { order, shop } = detail;
  const p = order.paymentDetails;
  const choice = deliveryChoiceText(deliveryOf(order));
  return (
    <>
      <h1>{T.receipt}</h1>
      <p>
        Purchase number <strong>{order.purchaseNumber}</strong>
        <br />
        Order date {formatDate(order.orderDate)}
        <br />
        Customer {order.customerName} · {order.guestInfo.phoneNumber}
      </p>
      {order.paymentStatus === 'Paid' && (
        <p>
          <span className="stamp" data-testid="paid-stamp">
            {T.paidStamp}
          </span>
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>Item</th>
            <th className="num">Qty</th>
            <th className="num">Unit price</th>
            <th className="num">Line total</th>
          </tr>
        </thead>
        <tbody>
          {order.products.map((l, i) => (
            <tr key={i}>
              <td>{lineItemName(l)}</td>
              <td className="num">{l.quantity}</td>
              <td className="num">{formatMoney(l.unitPrice)}</td>
              <td className="num">{formatMoney(l.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
        <tbody className="totals">
          <tr>
            <td colSpan={3}>Subtotal</td>
            <td className="num">{formatMoney(order.subtotal)}</td>
          </tr>
          <tr>
            <td colSpan={3}>{choice ? `Delivery: ${choice}` : 'Delivery'}</td>
            <td className="num">{deliveryFeeText(order.shippingFee)}</td>
          </tr>
          <tr className="grand">
            <td colSpan={3}>Total</td>
            <td className="num">{formatMoney(order.totalAmount)}</td>
          </tr>
        </tbody>
      </table>
      <p>
        Payment: {order.paymentMethod === 'Mpesa' ? 'M-Pesa' : order.paymentMethod}
        {p ? ` · ${formatMoney(p.amount)}` : ''}
        {p?.transactionCode ? (
          <>
            <br />
            M-Pesa receipt code <strong>{p.transactionCode}</strong>
          </>
        ) : null}
        {(p?.timePaid ?? order.paidAt) && (
          <>
            <br />
            Paid on {formatDateTime(p?.timePaid ?? order.paidAt)}
          </>
        )}
      </p>
      <EtimsPrinted documents={detail.etims} />
      <p className="muted">Thank you for buying from {shop.name}.</p>
    </>
  );
}

/**
 * KRA eTIMS on a printed receipt or delivery note: each document's CU invoice number, signature,
 * time and check link, or "eTIMS pending", and the tax by type. (The PDF carries the QR code.)
 */
function EtimsPrinted({ documents }: { documents: OrderDetail['etims'] }) {
  if (!documents.length) return null;
  return (
    <div data-testid="etims-printed">
      <p>
        <strong>{ETIMS_TEXTS.heading}</strong>
      </p>
      {documents.map((d) => (
        <p key={`${d.kind}-${d.trdInvcNo}`}>
          {ETIMS_KIND_LABELS[d.kind]} {d.trdInvcNo}
          <br />
          {d.state === 'signed' ? (
            <>
              {ETIMS_TEXTS.cuInvoiceNo} <strong>{d.cuInvoiceNo}</strong>
              <br />
              {ETIMS_TEXTS.signature} {d.signature}
              <br />
              {ETIMS_TEXTS.signedAt} {formatDateTime(d.signedAt)}
              {d.qrUrl && (
                <>
                  <br />
                  <span className="muted" style={{ overflowWrap: 'anywhere' }}>
                    {d.qrUrl}
                  </span>
                </>
              )}
            </>
          ) : (
            <strong>{ETIMS_TEXTS.pending}</strong>
          )}
          {d.taxes.map((t) => (
            <span key={t.taxType}>
              <br />
              {t.taxType} · {t.label}: {formatKes(t.amount)}, {ETIMS_TEXTS.tax.toLowerCase()}{' '}
              {formatKes(t.tax)}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}

function DeliveryNote({ detail }: { detail: OrderDetail }) {
  const { order } = detail;
  const g = order.guestInfo;
  const choice = deliveryChoiceText(deliveryOf(order));
  const units = order.products.reduce((n, l) => n + lineSeedlings(l), 0);
  return (
    <>
      <h1>{T.deliveryNote}</h1>
      <p>
        Purchase number <strong>{order.purchaseNumber}</strong>
        <br />
        Order date {formatDate(order.orderDate)}
      </p>
      <p>
        <strong>Deliver to</strong>
        <br />
        {g.fullName}
        <br />
        Phone {g.phoneNumber}
        <br />
        {deliveryAddressText(g)}
        {choice && (
          <>
            <br />
            {choice}
          </>
        )}
      </p>
      <table>
        <thead>
          <tr>
            <th>Item</th>
            <th className="num">Quantity</th>
          </tr>
        </thead>
        <tbody>
          {order.products.map((l, i) => (
            <tr key={i}>
              <td>{lineItemName(l)}</td>
              <td className="num">{l.quantity}</td>
            </tr>
          ))}
          <tr className="grand">
            <td>Seedlings in all</td>
            <td className="num">{units}</td>
          </tr>
        </tbody>
      </table>
      <EtimsPrinted documents={detail.etims} />
      <p className="signature">{T.signature}</p>
    </>
  );
}

function OrderPrintPage({ role }: { role: Role }) {
  const { id = '', document: which } = useParams();
  const document: OrderDocument = which === 'delivery-note' ? 'delivery-note' : 'receipt';
  const [paper, setPaper] = useState<Paper>('a4');
  const [downloading, setDownloading] = useState(false);
  const query = useOrderDetail(id);
  const detail = query.data;
  const available = detail && detail.documents[document === 'receipt' ? 'receipt' : 'deliveryNote'];
  const title = document === 'receipt' ? T.receipt : T.deliveryNote;

  const download = async () => {
    if (!detail) return;
    setDownloading(true);
    try {
      await downloadPdf(
        `/api/orders/${id}/${document}.pdf`,
        `${document}-${detail.order.purchaseNumber}.pdf`,
      );
    } catch (e) {
      notifications.show({ color: 'red', message: (e as Error).message });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div style={{ padding: 16, background: '#f1f3f1', minHeight: '100vh' }}>
      <style>{printCss(paper)}</style>
      <Group className="no-print" justify="space-between" mb="md" wrap="wrap">
        <Anchor component={Link} to={paths.orderDetail(role, id)}>
          ← Back to the order
        </Anchor>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label="Paper"
            value={paper}
            onChange={(v) => setPaper(v as Paper)}
            data={[
              { value: 'a4', label: 'A4' },
              { value: 'thermal', label: '80 mm thermal' },
            ]}
          />
          <Button onClick={() => window.print()} disabled={!available?.available}>
            Print
          </Button>
          <Button
            variant="default"
            onClick={() => void download()}
            loading={downloading}
            disabled={!available?.available}
          >
            {document === 'receipt' ? T.downloadReceipt : T.downloadDeliveryNote}
          </Button>
        </Group>
      </Group>
      {!detail ? (
        <ListState
          isLoading={query.isPending}
          isError={query.isError}
          isEmpty={false}
          emptyText=""
          errorText={BACKOFFICE_MESSAGES.listError}
        />
      ) : !available?.available ? (
        <Text c="red" role="alert" ta="center" py="xl">
          {available?.reason}
        </Text>
      ) : (
        <article className={`print-doc ${paper}`} aria-label={title}>
          <div className="shop">{detail.shop.name}</div>
          <div className="muted">
            {detail.shop.place} · Phone {detail.shop.phone} · {detail.shop.website}
          </div>
          {document === 'receipt' ? <Receipt detail={detail} /> : <DeliveryNote detail={detail} />}
        </article>
      )}
    </div>
  );
}

/** /admin/orders/:id/receipt and /admin/orders/:id/delivery-note */
export function AdminOrderPrintRoute() {
  return <OrderPrintPage role="admin" />;
}

/** /staff/orders/:id/receipt and /staff/orders/:id/delivery-note */
export function StaffOrderPrintRoute() {
  return <OrderPrintPage role="staff" />;
}
