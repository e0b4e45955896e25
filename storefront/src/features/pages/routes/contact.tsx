import { CONTACT_LIMITS, CONTACT_MESSAGES, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { Field } from '../../../components/field';
import { ApiError } from '../../../lib/api-client';
import { useShopContacts } from '../../../lib/shop-contacts';
import { useSendContactMessage, type ContactPayload } from '../api/send-contact';

const tooLong = (field: keyof typeof CONTACT_LIMITS) => ({
  value: CONTACT_LIMITS[field],
  message: CONTACT_MESSAGES.tooLong(field, CONTACT_LIMITS[field]),
});

/**
 * The contact form delivers the message to the shop (stored for the back office and e-mailed); the
 * shopper sees it sent, or why not, and the button is disabled while it is being sent. A link may
 * fill in the subject (`?subject=`), e.g. an order to cancel and refund.
 */
export function ContactRoute() {
  const shop = useShopContacts();
  const [params] = useSearchParams();
  const subject = (params.get('subject') ?? '').slice(0, CONTACT_LIMITS.subject);
  const send = useSendContactMessage();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ContactPayload>({ defaultValues: { name: '', email: '', subject, message: '' } });
  const onSubmit = handleSubmit((values) => send.mutate(values, { onSuccess: () => reset() }));
  const failure =
    send.error instanceof ApiError
      ? send.error.message
      : send.error
        ? STOREFRONT_MESSAGES.tryAgain
        : null;
  return (
    <div className="page narrow">
      <h1>Contact us</h1>
      <p>
        {shop && `Call us on ${shop.phone}, WhatsApp ${shop.whatsapp} or write to ${shop.email}. `}
        We are in Kiambu, Kenya.
      </p>
      {send.isSuccess && (
        <p role="status" className="notice">
          {send.data.message}
        </p>
      )}
      {failure && (
        <p role="alert" className="notice notice-error">
          {failure}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate aria-busy={send.isPending}>
        <Field
          label="Name"
          error={errors.name?.message}
          {...register('name', {
            required: CONTACT_MESSAGES.nameRequired,
            validate: (v) => v.trim() !== '' || CONTACT_MESSAGES.nameRequired,
            maxLength: tooLong('name'),
          })}
        />
        <Field
          label="Email"
          type="email"
          error={errors.email?.message}
          {...register('email', {
            required: CONTACT_MESSAGES.emailRequired,
            pattern: {
              value: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
              message: CONTACT_MESSAGES.emailInvalid,
            },
            maxLength: { value: CONTACT_LIMITS.email, message: CONTACT_MESSAGES.emailInvalid },
          })}
        />
        <Field
          label="Subject"
          error={errors.subject?.message}
          {...register('subject', {
            required: CONTACT_MESSAGES.subjectRequired,
            validate: (v) => v.trim() !== '' || CONTACT_MESSAGES.subjectRequired,
            maxLength: tooLong('subject'),
          })}
        />
        <div className="field">
          <label htmlFor="message">Message</label>
          <textarea
            id="message"
            rows={5}
            aria-invalid={Boolean(errors.message)}
            aria-describedby={errors.message ? 'message-error' : undefined}
            {...register('message', {
              required: CONTACT_MESSAGES.messageRequired,
              validate: (v) => v.trim() !== '' || CONTACT_MESSAGES.messageRequired,
              maxLength: tooLong('message'),
            })}
          />
          {errors.message && (
            <p id="message-error" className="field-error">
              {errors.message.message}
            </p>
          )}
        </div>
        <button type="submit" className="btn" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send message'}
        </button>
      </form>
    </div>
  );
}
