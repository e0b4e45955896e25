import { zodResolver } from '@hookform/resolvers/zod';
import {
  changePasswordFormSchema,
  STOREFRONT_MESSAGES,
  TIMINGS,
  type ChangePasswordForm,
} from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Modal } from '../../../components/modal';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { useUiStore } from '../../../stores/ui-store';
import { useChangePassword } from '../api/change-password';

/** Current / New / Confirm, each with its own toggle; closes 2 s after success. */
export function ChangePasswordModal() {
  const open = useUiStore((s) => s.changePasswordOpen);
  const setOpen = useUiStore((s) => s.setChangePasswordOpen);
  const mutation = useChangePassword();
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setOpen(false), TIMINGS.changePasswordModalCloseMs);
    return () => clearTimeout(t);
  }, [done, setOpen]);

  const onSubmit = handleSubmit(
    async ({ currentPassword, newPassword }) => {
      try {
        const res = await mutation.mutateAsync({ currentPassword, newPassword });
        toast.success(res.message);
        reset();
        setDone(true);
      } catch (e) {
        toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.changePasswordError);
        reset();
      }
    },
    (errs) => {
      // A mismatch resets the form.
      if (errs.confirmPassword?.type === 'custom') {
        toast.error(errs.confirmPassword.message ?? '');
        reset();
      }
    },
  );

  return (
    <Modal open={open} onClose={() => setOpen(false)} title="Change password">
      <form onSubmit={onSubmit} noValidate>
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...register('newPassword')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <button type="submit" className="btn btn-block" disabled={mutation.isPending}>
          Change password
        </button>
      </form>
    </Modal>
  );
}
