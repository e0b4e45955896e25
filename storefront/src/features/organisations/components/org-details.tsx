import { zodResolver } from '@hookform/resolvers/zod';
import {
  ORGANISATION_KIND_LABELS,
  ORGANISATION_STATUS_LABELS,
  organisationSignUpSchema,
  type OrganisationContact,
  type OrganisationSignUpForm,
  type OrganisationView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import { useUpdateContacts } from '../api/organisations';
import { ContactFields } from './contact-fields';

const contactsSchema = organisationSignUpSchema.pick({
  billingContact: true,
  deliveryContact: true,
});
type ContactsForm = Pick<OrganisationSignUpForm, 'billingContact' | 'deliveryContact'>;

const STATUS_WORDS: Record<OrganisationView['status'], string> = {
  pending: 'the shop checks each organisation before approving it.',
  approved: 'the shop has checked it.',
  suspended: 'for now its people shop as any customer.',
  declined: 'the shop did not approve it.',
};

function Contact({ title, c }: { title: string; c: OrganisationContact }) {
  return (
    <div>
      <h3>{title}</h3>
      <p className="org-wrap">
        {c.name}
        <br />
        {c.phone || '—'}
        <br />
        {c.email || '—'}
      </p>
    </div>
  );
}

function EditContacts({ org, onDone }: { org: OrganisationView; onDone: () => void }) {
  const mutation = useUpdateContacts(org._id);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ContactsForm>({
    resolver: zodResolver(contactsSchema),
    defaultValues: { billingContact: org.billingContact, deliveryContact: org.deliveryContact },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync(contactsSchema.parse(values));
      toast.success(res.message);
      onDone();
    } catch (e) {
      toast.error(problemText(e));
    }
  });
  return (
    <form className="org-form" onSubmit={onSubmit} noValidate aria-label="Edit the contacts">
      <ContactFields which="billingContact" register={register} errors={errors} />
      <ContactFields which="deliveryContact" register={register} errors={errors} />
      <div className="row-actions">
        <button type="submit" className="btn btn-sm" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save contacts'}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Status, what the shop approved (name, KRA PIN, kind) and the contacts its approvers edit. */
export function OrgDetails({ org, approver }: { org: OrganisationView; approver: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <section className="org-card" aria-labelledby="org-details">
      <h2 id="org-details">Details</h2>
      <p className={`org-status org-status-${org.status}`} role="status">
        <strong>{ORGANISATION_STATUS_LABELS[org.status]}</strong>: {STATUS_WORDS[org.status]}
        {org.statusReason && <> The shop says: {org.statusReason}</>}
      </p>
      <dl className="org-dl">
        <dt>KRA PIN</dt>
        <dd>{org.kraPin}</dd>
        <dt>Kind</dt>
        <dd>{ORGANISATION_KIND_LABELS[org.kind]}</dd>
      </dl>
      <p className="muted small">To change the name, KRA PIN or kind, contact the shop.</p>
      {editing ? (
        <EditContacts org={org} onDone={() => setEditing(false)} />
      ) : (
        <>
          <div className="org-contacts">
            <Contact title="Billing contact" c={org.billingContact} />
            <Contact title="Delivery contact" c={org.deliveryContact} />
          </div>
          {approver && (
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => setEditing(true)}
            >
              Edit contacts
            </button>
          )}
        </>
      )}
    </section>
  );
}
