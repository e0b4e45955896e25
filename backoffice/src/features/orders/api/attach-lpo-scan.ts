import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadLpoScan } from '../../../lib/lpo-scan';
import { quotationKeys } from '../../../lib/quotation-keys';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

/** Attaches (or replaces) an order's scanned LPO; the order and its quotation are read again. */
export function useAttachLpoScan(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadLpoScan(orderId, file),
    meta: { errorMessage: 'The scanned LPO could not be attached. Please try again.' },
    onSettled: async () => {
      await refreshQueries(client, orderKeys.all);
      await refreshQueries(client, quotationKeys.all);
    },
  });
}
