import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Modal } from '../../../components/modal';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useSessionStore } from '../../../stores/session-store';
import { deleteAccount, useConsent, useDownloadMyData, useSetConsent } from '../api/my-data';
import './your-data.css';

const problem = (e: unknown) => (e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.tryAgain);

/** Offers by text message: off unless the customer turns them on; STOP also ends them. */
function MarketingSwitch() {
  const consent = useConsent();
  const set = useSetConsent();
  const granted = consent.data?.granted ?? false;
  const on = set.isPending ? !granted : granted;
  return (
    <div>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={consent.isPending || set.isPending}
          aria-describedby="offers-help"
          onChange={(e) =>
            set.mutate(e.target.checked, {
              onSuccess: (res) =>
                toast.success(
                  res.marketingSms.granted ? 'Offers by SMS turned on' : 'Offers by SMS turned off',
                ),
              onError: (err) => toast.error(problem(err)),
            })
          }
        />
        <span>Offers and news by SMS</span>
      </label>
      <p id="offers-help" className="muted">
        Off unless you turn it on. Reply STOP to any offer to end them.
        {consent.data?.at &&
          ` Last changed ${new Date(consent.data.at).toLocaleDateString('en-KE')}${consent.data.source === 'sms-stop' ? ' by your STOP reply' : ''}.`}
      </p>
    </div>
  );
}

function DeleteAccountModal({ onClose }: { onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setError('Enter your password');
    setBusy(true);
    try {
      await deleteAccount(password);
      toast.success('Your account was deleted');
      // Signing out forgets everything of this customer on the phone (lib/forget-user.ts); the
      // profile's guard then shows the sign-in page.
      useSessionStore.getState().signOut();
    } catch (err) {
      setError(problem(err));
      setBusy(false);
    }
  };
  return (
    <Modal open onClose={onClose} title="Delete my account">
      <form onSubmit={submit} noValidate>
        <p>
          Your name, phone, e-mail, addresses and picture are erased and you cannot sign in again.
          Your orders stay for the shop's tax records, without your contacts.
        </p>
        <PasswordField
          label="Your password"
          name="delete-password"
          autoComplete="current-password"
          value={password}
          error={error}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="row-actions">
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Keep my account
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? 'Deleting...' : 'Delete my account'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The profile's "Your data" section: download, offers by SMS, deletion (issue 31). */
export function YourData({ customer }: { customer: boolean }) {
  const download = useDownloadMyData();
  const [deleting, setDeleting] = useState(false);
  return (
    <section aria-labelledby="your-data" className="your-data">
      <h2 id="your-data">Your data</h2>
      <p className="muted">
        What we keep and why: <Link to={paths.privacy}>privacy notice</Link>.
      </p>
      <div className="row-actions">
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={download.isPending}
          onClick={() =>
            download.mutate(undefined, {
              onSuccess: () => toast.success('Your data was downloaded'),
              onError: (err) => toast.error(problem(err)),
            })
          }
        >
          {download.isPending ? 'Preparing...' : 'Download my data'}
        </button>
        {customer && (
          <button
            type="button"
            className="btn btn-outline btn-sm btn-danger-outline"
            onClick={() => setDeleting(true)}
          >
            Delete my account
          </button>
        )}
      </div>
      {customer && <MarketingSwitch />}
      {deleting && <DeleteAccountModal onClose={() => setDeleting(false)} />}
    </section>
  );
}
