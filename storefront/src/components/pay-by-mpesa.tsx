import { formatMoney } from '@spc/shared-contracts';
import { useState } from 'react';
import { useMpesaPayInfo } from '../lib/mpesa-prompt';
import { MpesaPayment } from './mpesa-payment';
import { toast } from './toast';

/**
 * The order page's (and tracking's) way to pay an unpaid order by M-Pesa: after a failed prompt, "Try M-Pesa again"
 * (the prompt limits still apply), and always the paybill, the account and the amount due.
 */
export function PayByMpesa({
  purchaseNumber,
  phoneNumber,
  open,
  label = 'Pay with M-Pesa',
  onPaid,
}: {
  purchaseNumber: string;
  phoneNumber: string;
  /** Pending and unpaid, or a booking with a deposit or balance due: the orders that may be paid. */
  open: boolean;
  /** The button's words: a booking says which part it pays ("Pay the balance with M-Pesa"). */
  label?: string;
  /** The page refreshes what it shows of the order (its queries). */
  onPaid?: () => void;
}) {
  const info = useMpesaPayInfo(purchaseNumber, open);
  const [trying, setTrying] = useState(false);
  const data = info.data;
  if (!open || !data?.payable) return null;
  const failed = data.lastPrompt?.status === 'failed';
  const paid = (message: string) => {
    toast.success(message);
    setTrying(false);
    onPaid?.();
    void info.refetch();
  };
  return (
    <section className="order-card" aria-labelledby="pay-by-mpesa">
      <h2 id="pay-by-mpesa">Pay by M-Pesa</h2>
      {failed && !trying && (
        <p className="state state-error" role="alert">
          {data.lastPrompt!.message}
        </p>
      )}
      {trying ? (
        <MpesaPayment
          purchaseNumber={purchaseNumber}
          amount={data.amountDue}
          defaultPhone={phoneNumber}
          onPaid={paid}
        />
      ) : (
        <button type="button" className="btn btn-sm" onClick={() => setTrying(true)}>
          {failed ? 'Try M-Pesa again' : label}
        </button>
      )}
      {data.paybill && (
        <p className="small" data-testid="paybill-instructions">
          Or pay by M-Pesa Paybill <strong>{data.paybill}</strong>, account{' '}
          <strong>{data.account}</strong>, amount <strong>{formatMoney(data.amountDue)}</strong>.
        </p>
      )}
    </section>
  );
}
