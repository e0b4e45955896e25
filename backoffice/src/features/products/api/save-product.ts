import { BACKOFFICE_MESSAGES, type ProductPayload } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { productKeys } from './get-products';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface SaveProductInput {
  id?: string;
  values: ProductPayload;
  image?: File | null;
  /** The sale units (the units editor's payload), sent as JSON; left out: unchanged. */
  units?: unknown[];
}

/** The multipart form of POST /products and PUT /products/update/:id (initialPrice = price). */
export function productFormData({ values, image, units }: SaveProductInput): FormData {
  const data = new FormData();
  data.set('productName', values.productName);
  data.set('productDescription', values.productDescription);
  data.set('price', String(values.price));
  data.set('initialPrice', String(values.price));
  data.set('productQuantity', String(values.productQuantity));
  data.set('category', values.category);
  data.set('onOffer', String(values.onOffer));
  if (values.onOffer) data.set('offerPrice', String(values.offerPrice));
  // Always sent: empty is the shop's default tax type, and no classification code.
  data.set('taxType', values.taxType ?? '');
  data.set('itemClassCode', values.itemClassCode ?? '');
  if (units) data.set('units', JSON.stringify(units));
  if (image) data.set('productImage', image);
  return data;
}

export async function saveProduct(input: SaveProductInput) {
  const form = productFormData(input);
  const options = { body: {} as never, bodySerializer: () => form };
  return input.id
    ? unwrap(
        await api.PUT('/api/products/update/{id}', {
          ...options,
          params: { path: { id: input.id } },
        }),
      )
    : unwrap(await api.POST('/api/products', options));
}

export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProduct,
    meta: { errorMessage: BACKOFFICE_MESSAGES.productUploadError },
    onSuccess: () => refreshQueries(queryClient, productKeys.all),
  });
}
