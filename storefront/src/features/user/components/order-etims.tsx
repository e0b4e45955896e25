import {
  ETIMS_KIND_LABELS,
  ETIMS_TEXTS,
  etimsLine,
  formatDateTime,
  formatKes,
  type components,
} from '@spc/shared-contracts';
import './order-etims.css';

type EtimsDocument = components['schemas']['EtimsDocumentDto'];

/**
 * The order's tax invoices as KRA eTIMS signed them: per document, "eTIMS: <CU number>" linking to
 * KRA's check page (what the receipt's QR code opens), or "eTIMS pending", and the tax by type.
 * Its own chunk: only orders with eTIMS documents load it.
 */
export function OrderEtims({ documents }: { documents: EtimsDocument[] }) {
  return (
    <section className="order-card" aria-labelledby="order-etims-title">
      <h2 id="order-etims-title">Tax invoice ({ETIMS_TEXTS.heading})</h2>
      <ul className="receipt-lines" aria-label="eTIMS documents">
        {documents.map((d) => (
          <li key={`${d.kind}-${d.trdInvcNo}`} data-testid="etims-document">
            <span className="receipt-row etims-row">
              <span className="etims-whole">
                {ETIMS_KIND_LABELS[d.kind]} {d.trdInvcNo}
              </span>
              {d.state === 'signed' && d.qrUrl ? (
                <a className="etims-whole" href={d.qrUrl} target="_blank" rel="noopener noreferrer">
                  {etimsLine(d)}
                </a>
              ) : (
                <strong>{ETIMS_TEXTS.pending}</strong>
              )}
            </span>
            {d.state === 'signed' && d.signedAt && (
              <span className="muted small etims-signature">
                {ETIMS_TEXTS.signedAt} {formatDateTime(d.signedAt)} · {ETIMS_TEXTS.signature}{' '}
                {d.signature}
              </span>
            )}
            {d.state !== 'signed' && <span className="muted small">{ETIMS_TEXTS.pendingWhy}</span>}
            {d.taxes.map((t) => (
              <span key={t.taxType} className="receipt-row etims-row small">
                <span className="muted etims-whole">
                  {t.taxType} · {t.label}: {formatKes(t.amount)}
                </span>
                <span className="amount">
                  {ETIMS_TEXTS.tax} {formatKes(t.tax)}
                </span>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
