import type { SitePictureSlot } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { sitePictureKeys } from './get-site-pictures';

/** DELETE /site-pictures/:slot: the storefront shows its drawing there again. */
export async function removeSitePicture(slot: SitePictureSlot) {
  return unwrap(await api.DELETE('/api/site-pictures/{slot}', { params: { path: { slot } } }));
}

export function useRemoveSitePicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSitePicture,
    meta: { errorMessage: 'The picture could not be removed. Please try again.' },
    onSuccess: (data) => queryClient.setQueryData(sitePictureKeys.all, data),
  });
}
