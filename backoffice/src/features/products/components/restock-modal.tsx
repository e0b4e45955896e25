import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, NumberInput, Stack } from '@mantine/core';
import { updateStockPayloadSchema } from '@spc/shared-contracts';
import { Controller, useForm } from 'react-hook-form';
import type { Product } from '../api/get-products';
import { useMarkInStock } from '../api/mark-in-stock';

/** Mark in stock: the API needs the new stock count (more than 0). */
export function RestockModal({
  product,
  onClose,
}: {
  product: Product | null;
  onClose: () => void;
}) {
  const mutation = useMarkInStock();
  const form = useForm<{ productQuantity: unknown }, unknown, { productQuantity: number }>({
    resolver: zodResolver(updateStockPayloadSchema),
    values: { productQuantity: undefined },
  });
  const onSubmit = form.handleSubmit(({ productQuantity }) =>
    mutation.mutate(
      { id: product!._id, productQuantity },
      { onSuccess: () => setTimeout(onClose, 1000) },
    ),
  );
  return (
    <Modal opened={product !== null} onClose={onClose} title="Mark in stock" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Controller
            control={form.control}
            name="productQuantity"
            render={({ field }) => (
              <NumberInput
                label="Quantity in stock"
                allowDecimal={false}
                min={1}
                value={(field.value as number | undefined) ?? ''}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                error={form.formState.errors.productQuantity?.message}
              />
            )}
          />
          <Button type="submit" loading={mutation.isPending}>
            Mark in stock
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
