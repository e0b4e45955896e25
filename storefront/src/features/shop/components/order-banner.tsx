import { useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/icons';
import { paths } from '../../../config/paths';
import { useOrderBannerStore } from '../../../stores/order-banner-store';

/** Copies text to the clipboard; older phones without the Clipboard API fall back to a selection. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** The order just placed: its purchase number, a copy button and a Track link, until closed. */
export function OrderBanner() {
  const purchaseNumber = useOrderBannerStore((s) => s.purchaseNumber);
  const close = useOrderBannerStore((s) => s.close);
  const [copied, setCopied] = useState<boolean | null>(null);
  if (!purchaseNumber) return null;
  return (
    <section className="order-banner" role="status" aria-label="Your order">
      <p>
        Thank you! Your order is placed. Confirmation number:{' '}
        <strong data-testid="banner-purchase-number">{purchaseNumber}</strong>
        <span className="sr-only" aria-live="polite">
          {copied === true ? 'Copied' : copied === false ? 'Could not copy' : ''}
        </span>
      </p>
      <div className="order-banner-actions">
        <button
          type="button"
          className="btn btn-sm btn-light"
          onClick={() => void copyText(purchaseNumber).then(setCopied)}
        >
          {copied ? 'Copied' : 'Copy number'}
        </button>
        <Link
          to={`${paths.track}?number=${encodeURIComponent(purchaseNumber)}`}
          className="btn btn-sm btn-light"
        >
          Track
        </Link>
        <button
          type="button"
          className="icon-btn"
          aria-label="Close the order banner"
          onClick={close}
        >
          <Icon name="close" />
        </button>
      </div>
    </section>
  );
}
