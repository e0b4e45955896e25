import { zodResolver } from '@hookform/resolvers/zod';
import {
  QUOTATION_LIMITS,
  quotationRequestSchema,
  shopToday,
  type QuotationRequestForm,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Field } from '../../../components/field';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { problemText } from '../../../lib/api-client';
import type { CartItem } from '../../../stores/cart-store';
import { requestLines, useRequestQuotation } from '../api/request-quotation';

/**
 * "Request a quote" from the cart (loaded only when asked for): the cart's lines, where and when to
 * deliver, and a note; then the quotation's page. The cart stays as it is (a quote holds nothing).
 */
export function RequestQuoteForm({ items, onCancel }: { items: CartItem[]; onCancel: () => void }) {
  const request = useRequestQuotation();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<QuotationRequestForm>({
    resolver: zodResolver(quotationRequestSchema),
    defaultValues: {
      note: '',
      delivery: { siteName: '', county: '', subCounty: '', streetAddress: '', date: '' },
    },
  });
  const e = errors.delivery;
  const onSubmit = handleSubmit(async (values) => {
    const { note, delivery } = quotationRequestSchema.parse(values);
    try {
      const res = await request.mutateAsync({
        lines: requestLines(items),
        note,
        delivery: { ...delivery, subCounty: delivery.subCounty || null },
      });
      toast.success(res.message);
      navigate(`${paths.myOrganisation}?quotation=${res.quotation._id}`);
    } catch (err) {
      toast.error(problemText(err));
    }
  });
  return (
    <form className="quote-request" onSubmit={onSubmit} noValidate aria-label="Request a quote">
      <Field
        label="Delivery site"
        maxLength={QUOTATION_LIMITS.siteName}
        error={e?.siteName?.message}
        {...register('delivery.siteName')}
      />
      {/* Typed, not chosen: the list of counties would be a chunk of its own (shared with the
          checkout), and its name more of the first load; the API checks the name. */}
      <Field
        label="County"
        autoComplete="address-level1"
        error={e?.county?.message}
        {...register('delivery.county')}
      />
      <Field label="Sub-county (optional)" {...register('delivery.subCounty')} />
      <Field
        label="Street address"
        error={e?.streetAddress?.message}
        {...register('delivery.streetAddress')}
      />
      <Field
        label="Delivery date"
        type="date"
        min={shopToday()}
        error={e?.date?.message}
        {...register('delivery.date')}
      />
      <div className="field">
        <label htmlFor="quote-note">Note to the shop (optional)</label>
        <textarea
          id="quote-note"
          rows={3}
          maxLength={QUOTATION_LIMITS.note}
          aria-invalid={Boolean(errors.note)}
          {...register('note')}
        />
        {errors.note && <p className="field-error">{errors.note.message}</p>}
      </div>
      {request.isError && (
        <p className="state-error" role="alert">
          {problemText(request.error)}
        </p>
      )}
      <div className="row-actions">
        <button type="submit" className="btn" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Send the request'}
        </button>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
