import { useMutation } from '@tanstack/react-query';
import type { components } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';

export type ContactPayload = components['schemas']['ContactMessageDto'];

export const sendContactMessage = (body: ContactPayload) =>
  unwrap(api.POST('/api/contact', { body }));

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });
