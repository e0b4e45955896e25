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
  effectiveTaxType,
  IMAGE_MIME_TYPES,
  productFormSchema,
  TAX_MESSAGES,
  TAX_TYPES,
  taxTypeText,
  type ProductFormInput,
  type ProductPayload,
  type TaxType,
} from '@spc/shared-contracts';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { assetUrl } from '../../../lib/api-client';
import type { Product } from '../api/get-products';
import { useProductTax, type ProductTax } from '../api/get-product-tax';
import { useSaveProduct } from '../api/save-product';
import { imageProblem } from '../../../lib/image-check';
import classes from './product-form-modal.module.css';
import { draftsOf, unitProblems, unitsPayload, UnitsEditor, type UnitDraft } from './units-editor';

interface CategoryOption {
  _id: string;
  name: string;
}

const numberValue = (v: string | number) => (typeof v === 'number' ? v : undefined);

/** What "the shop's default" is, in the select's words. */
const shopDefaultText = (type: TaxType | null | undefined) =>
  type === undefined ? 'Shop default' : `Shop default (${type ? taxTypeText(type) : 'none set'})`;

export const PRODUCT_TAX_LOAD_ERROR = "Could not load the product's tax type; try again";

/**
 * Add/Update Product: every field, the on-offer toggle revealing the offer price, the KRA tax type
 * and item classification code, the sale units (each may have its own tax type), an image. An
 * existing product's tax is read first (staff read it apart from the product).
 * `shopDefaultTaxType`: the shop's default (null: none; undefined: not known yet).
 */
export function ProductFormModal({
  opened,
  onClose,
  product,
  categories,
  shopDefaultTaxType,
}: {
  opened: boolean;
  onClose: () => void;
  product?: Product | null;
  categories: CategoryOption[];
  shopDefaultTaxType?: TaxType | null;
}) {
  const tax = useProductTax(opened && product ? product._id : undefined);
  const shopDefault =
    shopDefaultTaxType !== undefined ? shopDefaultTaxType : tax.data?.shopDefaultTaxType;
  const title = product ? 'Update Product' : 'Add Product';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" centered>
      {product && tax.isPending ? (
        <PageLoader />
      ) : product && tax.isError ? (
        <Stack align="center" py="xl">
          <Text c="red" role="alert">
            {PRODUCT_TAX_LOAD_ERROR}
          </Text>
          <Group>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => tax.refetch()} loading={tax.isFetching}>
              Try again
            </Button>
          </Group>
        </Stack>
      ) : (
        <ProductForm
          onClose={onClose}
          opened={opened}
          product={product}
          categories={categories}
          tax={product ? tax.data : undefined}
          shopDefault={shopDefault}
        />
      )}
    </Modal>
  );
}

function ProductForm({
  opened,
  onClose,
  product,
  categories,
  tax,
  shopDefault,
}: {
  opened: boolean;
  onClose: () => void;
  product?: Product | null;
  categories: CategoryOption[];
  tax?: ProductTax;
  shopDefault: TaxType | null | undefined;
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
      taxType: tax?.taxType ?? '',
      itemClassCode: tax?.itemClassCode ?? '',
    },
  });
  const onOffer = useWatch({ control: form.control, name: 'onOffer' });
  const [price, offerPrice] = useWatch({ control: form.control, name: ['price', 'offerPrice'] });
  const taxType = useWatch({ control: form.control, name: 'taxType' });
  const [units, setUnits] = useState<UnitDraft[]>(() => draftsOf(product, tax));
  // Another product, or the modal opened again: its units afresh (set while rendering, as React
  // advises for state that follows a prop).
  const [unitsOf, setUnitsOf] = useState({ product, opened, tax });
  if (unitsOf.product !== product || unitsOf.opened !== opened || unitsOf.tax !== tax) {
    setUnitsOf({ product, opened, tax });
    setUnits(draftsOf(product, tax));
  }
  // What a unit without its own type is taxed at: the type chosen above, else the shop's default.
  const productTaxType = effectiveTaxType(
    null,
    typeof taxType === 'string' && taxType ? (taxType as TaxType) : null,
    shopDefault,
  );
  const productTaxText = productTaxType
    ? taxTypeText(productTaxType)
    : shopDefault === undefined
      ? 'the shop default'
      : 'none set';
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
    // The API refuses it too; said here at the field, before anything is sent.
    if (!values.taxType && shopDefault === null) {
      form.setError('taxType', { message: TAX_MESSAGES.noDefault });
      return;
    }
    mutation.mutate(
      { id: product?._id, values, image, units: unitsPayload(units) },
      { onSuccess: () => setTimeout(close, 1000) },
    );
  });
  const e = form.formState.errors;
  const shown = preview ?? assetUrl(product?.productImage);

  return (
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
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NativeSelect
            label="Tax type (KRA eTIMS)"
            data={[
              { value: '', label: shopDefaultText(shopDefault) },
              ...TAX_TYPES.map((t) => ({ value: t, label: taxTypeText(t) })),
            ]}
            {...form.register('taxType')}
            error={e.taxType?.message}
          />
          <TextInput
            label="Item classification code (KRA)"
            placeholder="8 or 10 digits from KRA's list"
            inputMode="numeric"
            {...form.register('itemClassCode')}
            error={e.itemClassCode?.message}
          />
        </SimpleGrid>
        <UnitsEditor
          drafts={units}
          onChange={setUnits}
          problems={unitErrors}
          productTax={productTaxText}
        />
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
  );
}
