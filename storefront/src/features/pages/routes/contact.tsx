import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../../components/field';
import { env } from '../../../config/env';

interface ContactForm {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The contact form makes no call; a shopper is pointed at the phone and e-mail instead. */
export function ContactRoute() {
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ContactForm>({ defaultValues: { name: '', email: '', subject: '', message: '' } });
  const onSubmit = handleSubmit(() => {
    setSent(true);
    reset();
  });
  return (
    <div className="page narrow">
      <h1>Contact us</h1>
      <p>
        Call us on {env.shopPhone}, WhatsApp {env.shopWhatsapp} or write to {env.shopEmail}. We are
        in Kiambu, Kenya.
      </p>
      {sent && (
        <p role="status" className="notice">
          Thank you for reaching out. For a quick answer, call or WhatsApp us.
        </p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Name"
          error={errors.name?.message}
          {...register('name', { required: 'name is a required field' })}
        />
        <Field
          label="Email"
          type="email"
          error={errors.email?.message}
          {...register('email', {
            required: 'email is a required field',
            pattern: {
              value: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
              message: 'email must be a valid email',
            },
          })}
        />
        <Field
          label="Subject"
          error={errors.subject?.message}
          {...register('subject', { required: 'subject is a required field' })}
        />
        <div className="field">
          <label htmlFor="message">Message</label>
          <textarea
            id="message"
            rows={5}
            aria-invalid={Boolean(errors.message)}
            aria-describedby={errors.message ? 'message-error' : undefined}
            {...register('message', { required: 'message is a required field' })}
          />
          {errors.message && (
            <p id="message-error" className="field-error">
              {errors.message.message}
            </p>
          )}
        </div>
        <button type="submit" className="btn">
          Send message
        </button>
      </form>
    </div>
  );
}
