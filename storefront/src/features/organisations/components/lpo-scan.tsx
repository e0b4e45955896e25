import {
  formatDateTime,
  LPO_SCAN_MESSAGES as LM,
  LPO_SCAN_TEXTS as LT,
  SCAN_ACCEPT,
  scanDescription,
  scanFileProblem,
  type QuotationAcceptanceView,
} from '@spc/shared-contracts';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import { downloadLpoScan, type AttachLpoScan } from '../api/lpo-scan';

type Attach = UseMutationResult<{ message: string }, Error, AttachLpoScan>;

/** The optional file of the approver's acceptance form: checked before the acceptance is sent. */
export function LpoScanField({
  file,
  error,
  disabled,
  onChange,
}: {
  file: File | null;
  error: string | null;
  disabled: boolean;
  onChange: (file: File | null) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="quote-lpo-scan">{LT.field}</label>
      <input
        id="quote-lpo-scan"
        type="file"
        accept={SCAN_ACCEPT}
        disabled={disabled}
        aria-invalid={Boolean(error)}
        onChange={(e) => onChange(e.currentTarget.files?.[0] ?? null)}
      />
      {file && !error && <p className="muted small org-wrap">{file.name}</p>}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/** What is wrong with the file picked, in the API's words (null: nothing, or no file). */
export const lpoScanProblem = (file: File | null) => (file ? scanFileProblem(file, LM) : null);

function AttachForm({
  orderId,
  replacing,
  attach,
}: {
  orderId: string;
  replacing: boolean;
  attach: Attach;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const label = replacing ? LT.replace : LT.attach;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = file ? lpoScanProblem(file) : LM.chooseFile;
    setProblem(wrong);
    if (wrong || !file) return;
    attach.mutate(
      { orderId, file },
      {
        onSuccess: (res) => {
          toast.success(res.message);
          setFile(null);
          setRound((r) => r + 1);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <div className="field">
        <label htmlFor="lpo-scan-file">{label} (PDF or photo)</label>
        <input
          key={round}
          id="lpo-scan-file"
          type="file"
          accept={SCAN_ACCEPT}
          disabled={attach.isPending}
          aria-invalid={Boolean(problem)}
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            setProblem(null);
          }}
        />
        {problem && <p className="field-error">{problem}</p>}
      </div>
      <button type="submit" className="btn btn-sm" disabled={attach.isPending}>
        {attach.isPending ? 'Sending…' : replacing ? 'Replace' : 'Attach'}
      </button>
    </form>
  );
}

/**
 * The scanned LPO of the order an accepted quotation made: downloaded by every person of the
 * organisation, attached or replaced by its approvers. `attach` is the page's, so that sending it
 * right after the acceptance shows here, and its failure says the order stands without it.
 */
export function LpoScanCard({
  acceptance: a,
  canAttach,
  attach,
}: {
  acceptance: QuotationAcceptanceView;
  canAttach: boolean;
  attach: Attach;
}) {
  const [fetching, setFetching] = useState(false);
  const scan = a.lpoScan;
  const download = () => {
    setFetching(true);
    downloadLpoScan(a.orderId, a.lpoNumber)
      .catch((e: Error) => toast.error(e.message))
      .finally(() => setFetching(false));
  };
  const failedAfterAccept = attach.isError && attach.variables?.afterAccept;
  return (
    <section className="org-card" aria-labelledby="lpo-scan">
      <h2 id="lpo-scan">{LT.title}</h2>
      {scan ? (
        <div className="quote-head">
          <p className="small">
            {scanDescription(scan)}, attached {formatDateTime(scan.uploadedAt)}
          </p>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={download}
            disabled={fetching}
          >
            {fetching ? 'Preparing…' : LT.download}
          </button>
        </div>
      ) : (
        <p className="muted small">{attach.isPending ? LT.sending : LT.none}</p>
      )}
      {attach.isError && (
        <div className="state-error" role="alert">
          {failedAfterAccept && <p>{LM.notAttached}</p>}
          <p>{problemText(attach.error)}</p>
        </div>
      )}
      {canAttach && <AttachForm orderId={a.orderId} replacing={Boolean(scan)} attach={attach} />}
    </section>
  );
}
