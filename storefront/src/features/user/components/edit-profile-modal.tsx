import { zodResolver } from '@hookform/resolvers/zod';
import { profileFormSchema, STOREFRONT_MESSAGES, type ProfilePayload } from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { Field } from '../../../components/field';
import { Modal } from '../../../components/modal';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import type { User } from '../../../lib/types';
import { useUpdateProfile } from '../api/update-profile';

export function EditProfileModal({ user, onClose }: { user: User; onClose: () => void }) {
  const mutation = useUpdateProfile();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ProfilePayload>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: {
      fullName: user.fullName,
      phoneNumber: user.phoneNumber ?? '',
      kraPin: user.kraPin ?? '',
    },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync({
        fullName: values.fullName,
        phoneNumber: values.phoneNumber,
        // Empty: none (a PIN the profile had is taken off).
        kraPin: values.kraPin ?? '',
      });
      toast.success(res.message);
      onClose();
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.profileUpdateError);
    }
  });
  return (
    <Modal open onClose={onClose} title="Edit profile">
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Full name"
          autoComplete="name"
          error={errors.fullName?.message}
          {...register('fullName')}
        />
        <Field
          label="Phone number"
          type="tel"
          autoComplete="tel"
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <Field
          label="KRA PIN (for a tax invoice in your name)"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="Optional, e.g. A012345678Z"
          error={errors.kraPin?.message}
          {...register('kraPin')}
        />
        <button type="submit" className="btn btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save changes'}
        </button>
      </form>
    </Modal>
  );
}
