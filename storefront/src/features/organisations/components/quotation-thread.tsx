import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatDateTime,
  QUOTATION_LIMITS,
  quotationMessageSchema,
  type QuotationMessageForm,
  type QuotationMessageView,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import { useWriteMessage } from '../api/quotations';

/** The messages with the shop, and a reply box. */
export function QuotationThread({
  id,
  messages,
}: {
  id: string;
  messages: QuotationMessageView[];
}) {
  const write = useWriteMessage(id);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<QuotationMessageForm>({
    resolver: zodResolver(quotationMessageSchema),
    defaultValues: { text: '' },
  });
  const onSubmit = handleSubmit(async ({ text }) => {
    try {
      await write.mutateAsync(text.trim());
      reset({ text: '' });
    } catch (e) {
      toast.error(problemText(e));
    }
  });
  return (
    <section className="org-card" aria-labelledby="quote-messages">
      <h2 id="quote-messages">Messages</h2>
      {messages.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <ol className="quote-thread">
          {messages.map((m) => (
            <li key={m._id} className={m.from === 'shop' ? 'from-shop' : undefined}>
              <p className="muted small">
                {m.authorName} · {formatDateTime(m.at)}
              </p>
              <p className="quote-note org-wrap">{m.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={onSubmit} noValidate aria-label="Write to the shop">
        <div className="field">
          <label htmlFor="quote-reply">Your message</label>
          <textarea
            id="quote-reply"
            rows={3}
            maxLength={QUOTATION_LIMITS.message}
            aria-invalid={Boolean(errors.text)}
            {...register('text')}
          />
          {errors.text && <p className="field-error">{errors.text.message}</p>}
        </div>
        <button type="submit" className="btn btn-sm" disabled={write.isPending}>
          {write.isPending ? 'Sending…' : 'Send message'}
        </button>
      </form>
    </section>
  );
}
