import { SITE_PICTURE_FIELD, type SitePictureSlot } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { sitePictureKeys } from './get-site-pictures';

export interface UploadSitePictureInput {
  slot: SitePictureSlot;
  picture: File;
  /** Hero slides only: an MP4 address played over the picture (its poster). */
  video?: string;
}

/** PUT /site-pictures/:slot with the picture as multipart. */
export async function uploadSitePicture({ slot, picture, video }: UploadSitePictureInput) {
  const form = new FormData();
  form.set(SITE_PICTURE_FIELD, picture);
  if (video?.trim()) form.set('video', video.trim());
  return unwrap(
    await api.PUT('/api/site-pictures/{slot}', {
      params: { path: { slot } },
      body: {} as never,
      bodySerializer: () => form,
    }),
  );
}

export function useUploadSitePicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadSitePicture,
    meta: { errorMessage: 'The picture could not be uploaded. Please try again.' },
    onSuccess: (data) => queryClient.setQueryData(sitePictureKeys.all, data),
  });
}
