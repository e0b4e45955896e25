import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { useSessionStore } from '../../../stores/session-store';
import { userKeys } from './get-profile';

export const uploadProfilePicture = (file: File) =>
  unwrap(
    api.PATCH('/api/users/profile-picture', {
      // openapi-fetch sends FormData as multipart when the body serializer hands it through.
      body: { profilePicture: file as unknown as string },
      bodySerializer: () => {
        const form = new FormData();
        form.append('profilePicture', file);
        return form;
      },
    }),
  );

export const deleteProfilePicture = () => unwrap(api.DELETE('/api/users/profile-picture'));

function useOnUser() {
  const queryClient = useQueryClient();
  return (res: Awaited<ReturnType<typeof deleteProfilePicture>>) => {
    queryClient.setQueryData(userKeys.profile, res);
    useSessionStore.getState().setUser(res.user);
  };
}

export const useUploadProfilePicture = () =>
  useMutation({ mutationFn: uploadProfilePicture, onSuccess: useOnUser() });
export const useDeleteProfilePicture = () =>
  useMutation({ mutationFn: deleteProfilePicture, onSuccess: useOnUser() });
