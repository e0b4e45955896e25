import { PURCHASE_NUMBER_PATTERN, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/field';
import { ApiError } from '../../../lib/api-client';
import { askAboutMyData, confirmRequest } from '../api/privacy';

const problem = (e: unknown) => (e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.tryAgain);

/**
 * A guest's request about their data: the purchase number and the phone given with it, then the
 * code the shop texts to that phone. The shop answers alike whether or not they match (so the form
 * tells nobody an order's phone): the code comes only if they do.
 */
export function DataRequestForm() {
  const [purchaseNumber, setPurchaseNumber] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [kind, setKind] = useState<'export' | 'erasure'>('export');
  const [requestId, setRequestId] = useState<string>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [dueAt, setDueAt] = useState<string>();

  const ask = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (!PURCHASE_NUMBER_PATTERN.test(purchaseNumber.trim().toUpperCase()))
      return setError('A purchase number looks like SPD followed by 8 letters and digits');
    if (!phoneNumber.trim()) return setError('Enter the phone number you gave with the order');
    setBusy(true);
    try {
      const res = await askAboutMyData({
        purchaseNumber: purchaseNumber.trim().toUpperCase(),
        phoneNumber,
        kind,
      });
      setRequestId(res.requestId);
    } catch (err) {
      setError(problem(err));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const res = await confirmRequest(requestId!, code);
      setDueAt(res.request.dueAt ?? undefined);
    } catch (err) {
      setError(problem(err));
    } finally {
      setBusy(false);
    }
  };

  if (dueAt)
    return (
      <p role="status" className="notice">
        Your request is confirmed. The shop answers by{' '}
        {new Date(dueAt).toLocaleDateString('en-KE', { dateStyle: 'long' })}.
      </p>
    );

  if (requestId)
    return (
      <form onSubmit={confirm} noValidate>
        <p role="status">
          If {phoneNumber} is the phone given with a guest order of this purchase number, we sent it
          a 6-digit code by SMS. It expires in 15 minutes. No code? Check the number and the phone,
          and ask again.
        </p>
        <Field
          label="Code from the SMS"
          name="request-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          error={error}
          onChange={(e) => setCode(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy}>
          {busy ? 'Checking...' : 'Confirm my request'}
        </button>
      </form>
    );

  return (
    <form onSubmit={ask} noValidate>
      <Field
        label="Purchase number"
        name="request-purchase-number"
        placeholder="SPD7K3MX9QA"
        value={purchaseNumber}
        onChange={(e) => setPurchaseNumber(e.target.value)}
      />
      <Field
        label="Phone number given with the order"
        name="request-phone"
        type="tel"
        autoComplete="tel"
        value={phoneNumber}
        onChange={(e) => setPhoneNumber(e.target.value)}
      />
      <fieldset>
        <legend>I would like</legend>
        <label>
          <input
            type="radio"
            name="request-kind"
            checked={kind === 'export'}
            onChange={() => setKind('export')}
          />
          a copy of my data
        </label>
        <label>
          <input
            type="radio"
            name="request-kind"
            checked={kind === 'erasure'}
            onChange={() => setKind('erasure')}
          />
          my data erased
        </label>
      </fieldset>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn" disabled={busy}>
        {busy ? 'Sending...' : 'Send me a code by SMS'}
      </button>
    </form>
  );
}
