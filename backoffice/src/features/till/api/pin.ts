import type { TillPinForm, TillPinResetForm } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';

/** `PUT /api/till/pin`: the signed-in clerk's own till PIN, with their password. */
export const useSetTillPin = () =>
  useMutation({
    mutationFn: (body: TillPinForm) =>
      unwrap(looseApi.PUT<{ message: string }>('/api/till/pin', { body })),
  });

/** `PUT /api/till/pin/:staffId` (admins): a staff member's new PIN, which also unlocks it. */
export const useResetTillPin = () =>
  useMutation({
    mutationFn: ({ staffId, pin }: TillPinResetForm) =>
      unwrap(looseApi.PUT<{ message: string }>(`/api/till/pin/${staffId}`, { body: { pin } })),
  });
