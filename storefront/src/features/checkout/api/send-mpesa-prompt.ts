import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export interface MpesaPromptInput {
  purchaseNumber: string;
  phoneNumber: string;
}

/** Sends the M-Pesa PIN prompt for an order; the API charges the order's total. */
export const sendMpesaPrompt = (body: MpesaPromptInput) =>
  unwrap(api.POST('/api/payments/mpesa/stk-push', { body }));

export const useSendMpesaPrompt = () => useMutation({ mutationFn: sendMpesaPrompt });
