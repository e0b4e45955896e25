import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import type { User } from '../../../lib/types';
import { useUpdateProfile } from '../api/update-profile';
import '../user.css';

/**
 * Turns the order text messages (placed, paid, sent, delivered, cancelled) on or off. The switch is
 * disabled while the change is being saved, and shows the saved state once it is.
 */
export function SmsSwitch({ user }: { user: User }) {
  const update = useUpdateProfile();
  const on = update.isPending ? !user.smsNotifications : user.smsNotifications;
  return (
    <section aria-labelledby="sms-updates">
      <h2 id="sms-updates">Text messages</h2>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={update.isPending}
          aria-describedby="sms-updates-help"
          onChange={(e) =>
            update.mutate(
              {
                fullName: user.fullName,
                phoneNumber: user.phoneNumber,
                county: user.county,
                streetAddress: user.streetAddress,
                smsNotifications: e.target.checked,
              },
              {
                onSuccess: (res) =>
                  toast.success(
                    res.user.smsNotifications ? 'SMS updates turned on' : 'SMS updates turned off',
                  ),
                onError: (err) =>
                  toast.error(err instanceof ApiError ? err.message : STOREFRONT_MESSAGES.tryAgain),
              },
            )
          }
        />
        <span>SMS updates about my orders</span>
      </label>
      <p id="sms-updates-help" className="muted">
        {update.isPending
          ? 'Saving...'
          : `We text ${user.phoneNumber || 'your phone'} when an order is placed, paid, sent, delivered or cancelled. Never advertising.`}
      </p>
    </section>
  );
}
