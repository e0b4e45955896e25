import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { ordersQuery, type OrdersFilter } from './get-orders';

/** The file name the API gives in Content-Disposition, or a dated one. */
function fileNameOf(response: Response): string {
  const header = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(header)?.[1] ?? 'orders.csv';
}

/** Downloads the orders matching the filter as CSV, through the signed-in client. */
export async function exportOrders(filter: OrdersFilter): Promise<string> {
  const result = await api.GET('/api/orders/export.csv', {
    params: { query: ordersQuery(filter) },
    parseAs: 'blob',
  });
  const data = unwrap(result);
  const fileName = fileNameOf(result.response);
  const url = URL.createObjectURL(data as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

export function useExportOrders() {
  return useMutation({
    mutationFn: exportOrders,
    meta: { errorMessage: 'The export failed', successToast: false },
  });
}
