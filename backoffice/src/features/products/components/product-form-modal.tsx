import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  FileInput,
  Group,
  Image,
  Modal,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  IMAGE_MIME_TYPES,
  productFormSchema,
  type ProductFormInput,
  type ProductPayload,
} from '@spc/shared-contracts';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { assetUrl } from '../../../lib/api-client';
import type { Product } from '../api/get-products';
import { useSaveProduct } from '../api/save-product';
import { imageProblem } from '../../../lib/image-check';
import classes from './product-form-modal.module.css';
import { draftsOf, unitProblems, unitsPayload, UnitsEditor, type UnitDraft } from './units-editor';

interface CategoryOption {
  _id: string;
  name: string;
}

const numberValue = (v: string | number) => (typeof v === 'number' ? v : undefined);

/** Add/Update Product: every field, the on-offer toggle revealing the offer price, an image. */
export function ProductFormModal({
  opened,
  onClose,
  product,
  categories,
}: {
  opened: boolean;
  onClose: () => void;
  product?: Product | null;
  categories: CategoryOption[];
}) {
  const mutation = useSaveProduct();
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string>();
  const form = useForm<ProductFormInput, unknown, ProductPayload>({
    resolver: zodResolver(productFormSchema),
    values: {
      productName: product?.productName ?? '',
      productDescription: product?.productDescription ?? '',
      price: product?.price,
      productQuantity: product?.productQuantity,
      category: product?.category?._id ?? '',
      onOffer: product?.onOffer ?? false,
      offerPrice: product?.onOffer ? product.offerPrice : undefined,
    },
  });
  const onOffer = useWatch({ control: form.control, name: 'onOffer' });
  const [price, offerPrice] = useWatch({ control: form.control, name: ['price', 'offerPrice'] });
  const [units, setUnits] = useState<UnitDraft[]>(() => draftsOf(product));
  // Another product, or the modal opened again: its units afresh (set while rendering, as React
  // advises for state that follows a prop).
  const [unitsOf, setUnitsOf] = useState({ product, opened });
  if (unitsOf.product !== product || unitsOf.opened !== opened) {
    setUnitsOf({ product, opened });
    setUnits(draftsOf(product));
  }
  const unitErrors = unitProblems(
    units,
    typeof price === 'number' && price > 0 ? price : undefined,
    onOffer === true && typeof offerPrice === 'number' ? offerPrice : 0,
  );

  const preview = useMemo(() => (image ? URL.createObjectURL(image) : undefined), [image]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const close = () => {
    setImage(null);
    setImageError(undefined);
    onClose();
  };
  const pickImage = (file: File | null) => {
    const problem = imageProblem(file);
    setImageError(problem);
    setImage(problem ? null : file);
  };
  const onSubmit = form.handleSubmit((values) => {
    if (imageError || unitErrors.size) return;
    mutation.mutate(
      { id: product?._id, values, image, units: unitsPayload(units) },
      { onSuccess: () => setTimeout(close, 1000) },
    );
  });
  const e = form.formState.errors;
  const shown = preview ?? assetUrl(product?.productImage);

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={product ? 'Update Product' : 'Add Product'}
      size="lg"
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Product Name"
            {...form.register('productName')}
            error={e.productName?.message}
          />
          <Textarea
            label="Description"
            autosize
            minRows={3}
            {...form.register('productDescription')}
            error={e.productDescription?.message}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Controller
              control={form.control}
              name="price"
              render={({ field }) => (
                <NumberInput
                  label="Price (KSH)"
                  allowDecimal={false}
                  min={0}
                  value={(field.value as number | undefined) ?? ''}
                  onChange={(v) => field.onChange(numberValue(v))}
                  error={e.price?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="productQuantity"
              render={({ field }) => (
                <NumberInput
                  label="Quantity"
                  allowDecimal={false}
                  min={0}
                  value={(field.value as number | undefined) ?? ''}
                  onChange={(v) => field.onChange(numberValue(v))}
                  error={e.productQuantity?.message}
                />
              )}
            />
          </SimpleGrid>
          <NativeSelect
            label="Category"
            data={[
              { value: '', label: 'Select a category' },
              ...categories.map((c) => ({ value: c._id, label: c.name })),
            ]}
            {...form.register('category')}
            error={e.category?.message}
          />
          <Controller
            control={form.control}
            name="onOffer"
            render={({ field }) => (
              <Switch
                label="On offer"
                checked={field.value === true}
                onChange={(ev) => field.onChange(ev.currentTarget.checked)}
              />
            )}
          />
          {onOffer === true && (
            <Controller
              control={form.control}
              name="offerPrice"
              render={({ field }) => (
                <NumberInput
                  label="Offer Price (KSH)"
                  allowDecimal={false}
                  min={0}
                  value={(field.value as number | undefined) ?? ''}
                  onChange={(v) => field.onChange(numberValue(v))}
                  error={e.offerPrice?.message}
                />
              )}
            />
          )}
          <UnitsEditor drafts={units} onChange={setUnits} problems={unitErrors} />
          {product && (
            <Text size="sm">
              Seedlings still growing are sold by booking from their batches:{' '}
              <Anchor component={Link} to={paths.productBatches(product._id)}>
                batches of this product
              </Anchor>
            </Text>
          )}
          <FileInput
            label="Product Image"
            placeholder="Choose an image (optional)"
            accept={IMAGE_MIME_TYPES.join(',')}
            value={image}
            onChange={pickImage}
            clearable
            error={imageError}
          />
          {shown && <Image src={shown} alt="Product preview" h={140} w="auto" fit="contain" />}
          {/* The modal's body scrolls on a short window; its buttons stay in view below it. */}
          <Group justify="flex-end" gap="sm" className={classes.footer}>
            <Button variant="default" onClick={close} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {product ? 'Update Product' : 'Add Product'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
