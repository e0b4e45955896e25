import { formatMoney, MPESA_MESSAGES, toMpesaPhone } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { ApiError } from '../lib/api-client';
import { useMpesaStatus, useSendMpesaPrompt } from '../lib/mpesa-prompt';

export interface MpesaPaymentProps {
  purchaseNumber: string;
  amount: number;
  /** The delivery phone, offered as the M-Pesa number. */
  defaultPhone: string;
  onPaid: (message: string) => void;
  /** How often the outcome is asked for while the shopper is on their phone (tests shorten it). */
  pollMs?: number;
  /** After this long without an outcome, the shopper is told they may leave. */
  slowAfterMs?: number;
}

/**
 * Pay with M-Pesa: the phone (prefilled), Send prompt, a waiting state while the shopper answers the
 * PIN prompt on their phone, then paid or the failure's message with Try again.
 */
export function MpesaPayment({
  purchaseNumber,
  amount,
  defaultPhone,
  onPaid,
  pollMs,
  slowAfterMs = 60_000,
}: MpesaPaymentProps) {
  const [phone, setPhone] = useState(defaultPhone);
  const [error, setError] = useState<string | null>(null);
  const [checkoutRequestId, setCheckoutRequestId] = useState('');
  /** The prompt that has been pending for a while, if any. */
  const [slowId, setSlowId] = useState('');
  const send = useSendMpesaPrompt();
  const status = useMpesaStatus(checkoutRequestId, pollMs);
  const outcome = checkoutRequestId ? status.data : undefined;

  useEffect(() => {
    if (outcome?.status === 'paid') onPaid(outcome.message);
  }, [outcome, onPaid]);

  useEffect(() => {
    if (!checkoutRequestId) return;
    const t = setTimeout(() => setSlowId(checkoutRequestId), slowAfterMs);
    return () => clearTimeout(t);
  }, [checkoutRequestId, slowAfterMs]);

  const sendPrompt = async () => {
    if (!toMpesaPhone(phone)) {
      setError(MPESA_MESSAGES.invalidPhone);
      return;
    }
    setError(null);
    try {
      const res = await send.mutateAsync({ purchaseNumber, phoneNumber: phone.trim() });
      setCheckoutRequestId(res.checkoutRequestId);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : MPESA_MESSAGES.unreachable);
    }
  };

  const tryAgain = () => {
    setCheckoutRequestId('');
    setError(null);
  };

  if (outcome?.status === 'failed') {
    return (
      <div className="mpesa-payment">
        <p className="state state-error" role="alert">
          {outcome.message}
        </p>
        <button type="button" className="btn" onClick={tryAgain}>
          Try again
        </button>
      </div>
    );
  }

  if (checkoutRequestId) {
    return (
      <div className="mpesa-payment" role="status" aria-live="polite">
        <p>
          <strong>{MPESA_MESSAGES.waiting}</strong>
        </p>
        <p className="muted">
          A prompt for {formatMoney(amount)} was sent to {phone.trim()}. This page updates by itself
          once you have paid.
        </p>
        {slowId === checkoutRequestId && <p className="muted">{MPESA_MESSAGES.stillWaiting}</p>}
      </div>
    );
  }

  const inputId = 'mpesa-phone';
  return (
    <div className="mpesa-payment">
      <div className="field">
        <label htmlFor={inputId}>M-Pesa phone number</label>
        <input
          id={inputId}
          name="mpesaPhone"
          type="tel"
          autoComplete="tel"
          value={phone}
          placeholder="0712 345 678"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => setPhone(e.target.value)}
        />
        {error && (
          <p id={`${inputId}-error`} className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <button
        type="button"
        className="btn btn-block"
        disabled={send.isPending}
        onClick={() => void sendPrompt()}
      >
        {send.isPending ? 'Sending prompt...' : 'Send prompt'}
      </button>
    </div>
  );
}
