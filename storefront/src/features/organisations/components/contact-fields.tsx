import type { OrganisationSignUpForm } from '@spc/shared-contracts';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Field } from '../../../components/field';

type Contacts = Pick<OrganisationSignUpForm, 'billingContact' | 'deliveryContact'>;
type Which = keyof Contacts;

const LEGEND: Record<Which, string> = {
  billingContact: 'Billing contact (invoices and payments)',
  deliveryContact: 'Delivery contact (at the planting site)',
};

/** A contact's name, phone and e-mail, as one fieldset of a form holding both contacts. */
export function ContactFields<F extends Contacts>({
  which,
  register,
  errors,
}: {
  which: Which;
  register: UseFormRegister<F>;
  errors: FieldErrors<F>;
}) {
  const reg = register as unknown as UseFormRegister<Contacts>;
  const err = (errors as FieldErrors<Contacts>)[which];
  return (
    <fieldset className="org-contact">
      <legend>{LEGEND[which]}</legend>
      <Field
        label="Name"
        autoComplete="name"
        error={err?.name?.message}
        {...reg(`${which}.name`)}
      />
      <Field
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        error={err?.phone?.message}
        {...reg(`${which}.phone`)}
      />
      <Field
        label="E-mail"
        type="email"
        autoComplete="email"
        error={err?.email?.message}
        {...reg(`${which}.email`)}
      />
    </fieldset>
  );
}
