import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { profileFormSchema, type ProfilePayload } from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { LoggedInUser } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';

type ProfileInput = z.input<typeof profileFormSchema>;

/** Edit Profile: full name and phone number of the signed-in user. */
export function EditProfileModal({
  opened,
  onClose,
  user,
}: {
  opened: boolean;
  onClose: () => void;
  user: LoggedInUser;
}) {
  const mutation = useUpdateProfile();
  const form = useForm<ProfileInput, unknown, ProfilePayload>({
    resolver: zodResolver(profileFormSchema),
    values: { fullName: user.fullName, phoneNumber: user.phoneNumber ?? '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(
      { fullName: values.fullName, phoneNumber: values.phoneNumber },
      { onSuccess: () => setTimeout(onClose, 1000), onError: () => form.reset() },
    ),
  );
  return (
    <Modal opened={opened} onClose={onClose} title="Edit Profile" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Full Name"
            {...form.register('fullName')}
            error={form.formState.errors.fullName?.message}
          />
          <TextInput
            label="Phone Number"
            {...form.register('phoneNumber')}
            error={form.formState.errors.phoneNumber?.message}
          />
          <Button type="submit" loading={mutation.isPending}>
            Save
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
