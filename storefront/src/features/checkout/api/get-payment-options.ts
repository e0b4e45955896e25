import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const paymentKeys = {
  options: () => ['payments', 'options'] as const,
};

export const getPaymentOptions = () => unwrap(api.GET('/api/payments/options'));

/** Which ways to pay the shop offers; M-Pesa Express only when the API has it configured. */
export const paymentOptionsQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.options(),
    queryFn: getPaymentOptions,
    retry: false,
  });

export const usePaymentOptions = () => useQuery(paymentOptionsQueryOptions());
