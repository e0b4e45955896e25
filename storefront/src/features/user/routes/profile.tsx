import { initials, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useRef, useState } from 'react';
import { ErrorState, Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { ApiError, assetUrl } from '../../../lib/api-client';
import { useProfile } from '../api/get-profile';
import { useDeleteProfilePicture, useUploadProfilePicture } from '../api/profile-picture';
import { EditProfileModal } from '../components/edit-profile-modal';
import { SmsSwitch } from '../components/sms-switch';
import { YourData } from '../components/your-data';
import '../user.css';

const roleLabel = (role: string) => (role === 'customer' ? 'customer' : role);

export function ProfileRoute() {
  const { data, isPending, isError } = useProfile();
  const [editing, setEditing] = useState(false);
  const upload = useUploadProfilePicture();
  const remove = useDeleteProfilePicture();
  const fileRef = useRef<HTMLInputElement>(null);
  if (isPending) return <Loading />;
  if (isError) return <ErrorState />;
  const user = data.user;
  const onError = (e: unknown) =>
    toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.tryAgain);
  return (
    <div className="page profile">
      <section className="profile-banner">
        <div className="avatar avatar-lg" aria-hidden={!user.profilePicture}>
          {user.profilePicture ? (
            <img
              src={assetUrl(user.profilePicture)}
              alt={`${user.fullName}'s profile picture`}
              width={96}
              height={96}
            />
          ) : (
            initials(user.fullName)
          )}
        </div>
        <h1>Hi {user.fullName}, Welcome Back!</h1>
        <div className="row-actions">
          <label className="btn btn-outline btn-sm" htmlFor="profile-picture">
            {upload.isPending ? 'Uploading...' : 'Change picture'}
          </label>
          <input
            ref={fileRef}
            id="profile-picture"
            className="sr-only"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file)
                upload.mutate(file, {
                  onSuccess: (res) => toast.success(res.message),
                  onError,
                  onSettled: () => {
                    if (fileRef.current) fileRef.current.value = '';
                  },
                });
            }}
          />
          {user.profilePicture && (
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: (res) => toast.success(res.message),
                  onError,
                })
              }
            >
              Remove picture
            </button>
          )}
        </div>
      </section>
      <div className="profile-grid">
        <section aria-labelledby="personal">
          <h2 id="personal">Personal information</h2>
          <dl>
            <dt>Full name</dt>
            <dd>{user.fullName}</dd>
            <dt>Email</dt>
            <dd>{user.email}</dd>
            <dt>Role</dt>
            <dd>{roleLabel(user.role)}</dd>
            <dt>Phone number</dt>
            <dd>{user.phoneNumber || '—'}</dd>
            <dt>KRA PIN (for tax invoices)</dt>
            <dd data-testid="kra-pin">{user.kraPin || '—'}</dd>
          </dl>
        </section>
        <section aria-labelledby="delivery">
          <h2 id="delivery">Delivery information</h2>
          <dl>
            <dt>Street address</dt>
            <dd>{user.streetAddress || '—'}</dd>
            <dt>County</dt>
            <dd>{user.county || '—'}</dd>
          </dl>
        </section>
        <SmsSwitch user={user} />
        <YourData customer={user.role === 'customer'} />
      </div>
      <button type="button" className="btn" onClick={() => setEditing(true)}>
        edit profile
      </button>
      {editing && <EditProfileModal user={user} onClose={() => setEditing(false)} />}
    </div>
  );
}
