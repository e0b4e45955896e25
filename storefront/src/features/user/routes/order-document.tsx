import { ORDER_DOCUMENT_TEXTS, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Loading } from '../../../components/states';
import { documentUrl, fetchPdf } from '../../../lib/pdf';

type State =
  { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'error'; message: string };

/**
 * /orders/:id/receipt?expires=..&signature=..: where the payment e-mail's link leads, on a phone
 * with no session. The signed link is checked by the API; the page offers the PDF or says why not.
 */
export function OrderDocumentRoute() {
  const { id = '', document = 'receipt' } = useParams();
  const [params] = useSearchParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const kind = document === 'delivery-note' ? 'delivery-note' : 'receipt';
  const query = params.toString();

  useEffect(() => {
    let url: string | null = null;
    let live = true;
    const signed = new URLSearchParams(query);
    const link = new URLSearchParams({
      expires: signed.get('expires') ?? '',
      signature: signed.get('signature') ?? '',
    });
    fetchPdf(documentUrl(`/api/orders/${id}/${kind}.pdf`, link), false)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        if (live) setState({ kind: 'ready', url });
      })
      .catch((e: Error) => live && setState({ kind: 'error', message: e.message }));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, kind, query]);

  const label =
    kind === 'receipt'
      ? ORDER_DOCUMENT_TEXTS.downloadReceipt
      : ORDER_DOCUMENT_TEXTS.downloadDeliveryNote;
  return (
    <div className="page narrow">
      <h1>
        {kind === 'receipt' ? ORDER_DOCUMENT_TEXTS.receipt : ORDER_DOCUMENT_TEXTS.deliveryNote}
      </h1>
      {state.kind === 'loading' && <Loading />}
      {state.kind === 'error' && (
        <p className="state state-error" role="alert">
          {state.message || STOREFRONT_MESSAGES.somethingWentWrong}
        </p>
      )}
      {state.kind === 'ready' && (
        <p>
          <a className="btn" href={state.url} download={`${kind}.pdf`}>
            {label}
          </a>
        </p>
      )}
    </div>
  );
}
