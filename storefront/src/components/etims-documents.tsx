import {
  ETIMS_KIND_LABELS,
  ETIMS_TEXTS,
  etimsLine,
  formatDateTime,
  formatKes,
  type components,
} from '@spc/shared-contracts';
import './etims-documents.css';

type EtimsDocument = components['schemas']['EtimsDocumentDto'];

/**
 * An order's or an invoice's tax documents as KRA eTIMS signed them: per document, "eTIMS: <CU
 * number>" linking to KRA's check page (what the receipt's QR code opens), or "eTIMS pending", and the tax by type.
 * Its own chunk: only orders and invoices with eTIMS documents load it.
 */
export function EtimsDocuments({ documents }: { documents: EtimsDocument[] }) {
  return (
    <section className="etims-card" aria-labelledby="order-etims-title">
      <h2 id="order-etims-title">Tax invoice ({ETIMS_TEXTS.heading})</h2>
      <ul className="etims-docs" aria-label="eTIMS documents">
        {documents.map((d) => (
          <li key={`${d.kind}-${d.trdInvcNo}`} data-testid="etims-document">
            <span className="etims-row">
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
              <span key={t.taxType} className="etims-row small">
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
