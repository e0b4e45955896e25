import type { TillPinForm } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';

/** `PUT /api/till/pin`: the signed-in clerk's own till PIN, with their password. */
export const useSetTillPin = () =>
  useMutation({
    mutationFn: (body: TillPinForm) =>
      unwrap(looseApi.PUT<{ message: string }>('/api/till/pin', { body })),
  });
