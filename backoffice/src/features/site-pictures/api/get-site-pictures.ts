import { BACKOFFICE_MESSAGES, type components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type SitePicture = components['schemas']['SitePictureDto'];

export const sitePictureKeys = { all: ['site-pictures'] as const };

export async function getSitePictures() {
  return unwrap(await api.GET('/api/site-pictures'));
}

export const sitePicturesQueryOptions = () =>
  queryOptions({
    queryKey: sitePictureKeys.all,
    queryFn: getSitePictures,
    meta: { errorMessage: BACKOFFICE_MESSAGES.listError },
  });

export const useSitePictures = () => useQuery(sitePicturesQueryOptions());
