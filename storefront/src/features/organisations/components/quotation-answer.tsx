import { zodResolver } from '@hookform/resolvers/zod';
import {
  canActOnQuotation,
  formatDate,
  QUOTATION_LIMITS,
  quotationAcceptSchema,
  quotationMessageSchema,
  type QuotationAcceptForm,
  type QuotationMessageForm,
  type QuotationShortLine,
  type QuotationView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import {
  shortLines,
  useAcceptQuotation,
  useAskChanges,
  useDeclineQuotation,
} from '../api/quotations';
import { LpoScanField, lpoScanProblem } from './lpo-scan';

/** After an acceptance: the order it made, and the scanned LPO picked to go with it (if any). */
export type OnAccepted = (orderId: string, scan: File) => void;

const n = (x: number) => x.toLocaleString('en-US');

function ShortLines({ lines }: { lines: QuotationShortLine[] }) {
  return (
    <ul className="quote-short" aria-label="What the shop can offer">
      {lines.map((l, i) => (
        <li key={i} className="org-wrap">
          {l.productName}: {n(l.seedlings)} seedlings asked, {n(l.available)} left.
          {l.batches.length
            ? ` Growing: ${l.batches.map((b) => `${n(b.available)} ready ${formatDate(b.readyOn)}`).join('; ')}.`
            : ' No growing batch can make them up.'}
        </li>
      ))}
    </ul>
  );
}

/**
 * The approver's acceptance: the latest version, with the LPO number and, optionally, its scan
 * (sent to the order once the acceptance made it: `onAccepted`).
 */
function AcceptForm({ q, onAccepted }: { q: QuotationView; onAccepted: OnAccepted }) {
  const accept = useAcceptQuotation(q._id);
  const version = q.versions[q.versions.length - 1]!.version;
  const [scan, setScan] = useState<File | null>(null);
  const [scanProblem, setScanProblem] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<QuotationAcceptForm>({
    resolver: zodResolver(quotationAcceptSchema),
    defaultValues: { lpoNumber: '' },
  });
  const onSubmit = handleSubmit(async ({ lpoNumber }) => {
    const problem = lpoScanProblem(scan);
    setScanProblem(problem);
    if (problem) return;
    try {
      const res = await accept.mutateAsync({ version, lpoNumber: lpoNumber.trim() });
      toast.success(res.message);
      const orderId = res.quotation.acceptance?.orderId;
      if (scan && orderId) onAccepted(orderId, scan);
    } catch (e) {
      toast.error(problemText(e));
    }
  });
  const short = shortLines(accept.error);
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Accept version ${version}`}>
      <div className="field">
        <label htmlFor="quote-lpo">LPO number</label>
        <input
          id="quote-lpo"
          maxLength={QUOTATION_LIMITS.lpoNumber}
          autoComplete="off"
          aria-invalid={Boolean(errors.lpoNumber)}
          {...register('lpoNumber')}
        />
        {errors.lpoNumber && <p className="field-error">{errors.lpoNumber.message}</p>}
      </div>
      <LpoScanField
        file={scan}
        error={scanProblem}
        disabled={accept.isPending}
        onChange={(file) => {
          setScan(file);
          setScanProblem(null);
        }}
      />
      <button type="submit" className="btn" disabled={accept.isPending}>
        {accept.isPending ? 'Accepting…' : `Accept version ${version}`}
      </button>
      {accept.isError && (
        <div className="state-error quote-refusal" role="alert">
          <p>{problemText(accept.error)}</p>
          {short && <ShortLines lines={short} />}
        </div>
      )}
    </form>
  );
}

/** Asking the shop for a revision: what should change. */
function AskChangesForm({ q, onDone }: { q: QuotationView; onDone: () => void }) {
  const ask = useAskChanges(q._id);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<QuotationMessageForm>({
    resolver: zodResolver(quotationMessageSchema),
    defaultValues: { text: '' },
  });
  const onSubmit = handleSubmit(async ({ text }) => {
    try {
      const res = await ask.mutateAsync(text.trim());
      toast.success(res.message);
      onDone();
    } catch (e) {
      toast.error(problemText(e));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Ask for changes">
      <div className="field">
        <label htmlFor="quote-changes">What should change?</label>
        <textarea
          id="quote-changes"
          rows={3}
          maxLength={QUOTATION_LIMITS.message}
          aria-invalid={Boolean(errors.text)}
          {...register('text')}
        />
        {errors.text && <p className="field-error">{errors.text.message}</p>}
      </div>
      <div className="row-actions">
        <button type="submit" className="btn btn-sm" disabled={ask.isPending}>
          {ask.isPending ? 'Sending…' : 'Send the request'}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDone}>
          Cancel
        </button>
      </div>
      {ask.isError && (
        <p className="state-error" role="alert">
          {problemText(ask.error)}
        </p>
      )}
    </form>
  );
}

function DeclineButton({ q }: { q: QuotationView }) {
  const decline = useDeclineQuotation(q._id);
  const [sure, setSure] = useState(false);
  const go = () =>
    decline.mutate('', {
      onSuccess: (res) => toast.success(res.message),
      onError: (e) => toast.error(problemText(e)),
    });
  return sure ? (
    <div className="row-actions" role="group" aria-label="Decline this quotation?">
      <span>Decline this quotation?</span>
      <button type="button" className="btn btn-sm" onClick={go} disabled={decline.isPending}>
        {decline.isPending ? 'Declining…' : 'Yes, decline'}
      </button>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => setSure(false)}>
        No
      </button>
    </div>
  ) : (
    <button type="button" className="btn btn-outline btn-sm" onClick={() => setSure(true)}>
      Decline
    </button>
  );
}

/** What the organisation may do with a quotation sent to it, by its role and the rules table. */
export function QuotationAnswer({
  q,
  role,
  onAccepted,
}: {
  q: QuotationView;
  role: 'approver' | 'buyer';
  onAccepted: OnAccepted;
}) {
  const [asking, setAsking] = useState(false);
  const can = (a: 'accept' | 'decline' | 'askChanges') => canActOnQuotation(a, q.status, role);
  if (!can('accept') && !can('decline') && !can('askChanges')) return null;
  return (
    <section className="org-card" aria-labelledby="quote-answer">
      <h2 id="quote-answer">Your answer</h2>
      {can('accept') && q.versions.length > 0 && <AcceptForm q={q} onAccepted={onAccepted} />}
      {!can('accept') && role === 'buyer' && q.status === 'sent' && (
        <p className="muted small">An approver of your organisation accepts or declines it.</p>
      )}
      <div className="row-actions quote-actions">
        {can('askChanges') && !asking && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setAsking(true)}>
            Ask for changes
          </button>
        )}
        {can('decline') && <DeclineButton q={q} />}
      </div>
      {asking && <AskChangesForm q={q} onDone={() => setAsking(false)} />}
    </section>
  );
}
