import { zodResolver } from '@hookform/resolvers/zod';
import {
  ORGANISATION_KIND_LABELS,
  ORGANISATION_KINDS,
  organisationSignUpSchema,
  type OrganisationSignUpForm,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { Field } from '../../../components/field';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import { useSignUpOrganisation } from '../api/organisations';
import { ContactFields } from './contact-fields';

const EMPTY_CONTACT = { name: '', phone: '', email: '' };

/** The sign-up of an organisation by a signed-in customer, who becomes its approver. */
export function SignUpForm() {
  const mutation = useSignUpOrganisation();
  const {
    register,
    handleSubmit,
    trigger,
    formState: { errors },
  } = useForm<OrganisationSignUpForm>({
    resolver: zodResolver(organisationSignUpSchema),
    defaultValues: {
      name: '',
      kraPin: '',
      kind: 'ngo',
      billingContact: EMPTY_CONTACT,
      deliveryContact: EMPTY_CONTACT,
    },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync(organisationSignUpSchema.parse(values));
      toast.success(res.message);
    } catch (e) {
      toast.error(problemText(e));
    }
  });
  return (
    <form
      className="org-form"
      onSubmit={onSubmit}
      noValidate
      aria-label="Sign up your organisation"
    >
      <Field label="Organisation name" error={errors.name?.message} {...register('name')} />
      <Field
        label="KRA PIN"
        placeholder="P051234567X"
        autoCapitalize="characters"
        spellCheck={false}
        error={errors.kraPin?.message}
        {...register('kraPin', { onChange: () => void trigger('kraPin') })}
      />
      <div className="field">
        <label htmlFor="kind">Kind of organisation</label>
        <select id="kind" aria-invalid={Boolean(errors.kind)} {...register('kind')}>
          {ORGANISATION_KINDS.map((k) => (
            <option key={k} value={k}>
              {ORGANISATION_KIND_LABELS[k]}
            </option>
          ))}
        </select>
        {errors.kind && <p className="field-error">{errors.kind.message}</p>}
      </div>
      <ContactFields which="billingContact" register={register} errors={errors} />
      <ContactFields which="deliveryContact" register={register} errors={errors} />
      <button type="submit" className="btn btn-block" disabled={mutation.isPending}>
        {mutation.isPending ? 'Sending...' : 'Sign up the organisation'}
      </button>
    </form>
  );
}
