import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, NumberInput, Stack } from '@mantine/core';
import { offerFormSchema } from '@spc/shared-contracts';
import { Controller, useForm } from 'react-hook-form';
import { useApplyOffer } from '../api/apply-offer';
import type { Product } from '../api/get-products';

/** 'Create an Offer for this product': one Offer Price input. */
export function OfferModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const mutation = useApplyOffer();
  const form = useForm<{ offerPrice: unknown }, unknown, { offerPrice: number }>({
    resolver: zodResolver(offerFormSchema(product?.price ?? 0)),
    values: { offerPrice: undefined },
  });
  const onSubmit = form.handleSubmit(({ offerPrice }) =>
    mutation.mutate(
      { id: product!._id, offerPrice },
      { onSuccess: () => setTimeout(onClose, 1000) },
    ),
  );
  return (
    <Modal
      opened={product !== null}
      onClose={onClose}
      title="Create an Offer for this product"
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Controller
            control={form.control}
            name="offerPrice"
            render={({ field }) => (
              <NumberInput
                label="Offer Price"
                placeholder="ksh"
                allowDecimal={false}
                min={0}
                value={(field.value as number | undefined) ?? ''}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                error={form.formState.errors.offerPrice?.message}
              />
            )}
          />
          <Button type="submit" loading={mutation.isPending}>
            Create Offer
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
