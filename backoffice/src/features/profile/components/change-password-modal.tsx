import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, PasswordInput, Stack } from '@mantine/core';
import {
  staffChangePasswordFormSchema,
  TIMINGS,
  type ChangePasswordForm,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { useChangePassword } from '../api/change-password';

export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const mutation = useChangePassword();
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(staffChangePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) =>
    mutation.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => setTimeout(close, TIMINGS.changePasswordModalCloseMs),
        onError: () => form.reset(),
      },
    ),
  );
  const e = form.formState.errors;
  return (
    <Modal opened={opened} onClose={close} title="Change Password" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <PasswordInput
            label="Old Password"
            {...form.register('currentPassword')}
            error={e.currentPassword?.message}
          />
          <PasswordInput
            label="New Password"
            {...form.register('newPassword')}
            error={e.newPassword?.message}
          />
          <PasswordInput
            label="Confirm Password"
            {...form.register('confirmPassword')}
            error={e.confirmPassword?.message}
          />
          <Button type="submit" loading={mutation.isPending}>
            Change Password
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
