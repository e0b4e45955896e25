import type { components, SitePictureSlot } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './api-client';

export type SitePicture = components['schemas']['SitePictureDto'];

export const sitePictureKeys = { all: ['site-pictures'] as const };

/** The shop's own photos; a place not listed keeps its drawing. */
export const getSitePictures = () => unwrap(api.GET('/api/site-pictures'));

export const sitePicturesQueryOptions = () =>
  queryOptions({ queryKey: sitePictureKeys.all, queryFn: getSitePictures });

/**
 * The shop's photo for each place once known; empty while loading or when the call fails, so the
 * drawings show meanwhile.
 */
export function useSitePictures(): Partial<Record<SitePictureSlot, SitePicture>> {
  const { data } = useQuery(sitePicturesQueryOptions());
  return (data?.pictures ?? {}) as Partial<Record<SitePictureSlot, SitePicture>>;
}
