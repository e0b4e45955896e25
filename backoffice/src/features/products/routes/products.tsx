import { Button, Group, NativeSelect, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmModal, confirmQuestion } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import { LowStockTable } from '../../../components/low-stock-table';
import { PaginationControl } from '../../../components/pagination-control';
import { useSessionRole } from '../../../lib/session-store';
import { useDeleteProduct } from '../api/delete-product';
import { useProducts, type Product } from '../api/get-products';
import { useMarkOutOfStock } from '../api/mark-out-of-stock';
import { OfferModal } from '../components/offer-modal';
import type { ProductActionHandlers } from '../components/product-actions';
import { ProductFormModal } from '../components/product-form-modal';
import { ProductCards, ProductsTable } from '../components/products-view';
import { RestockModal } from '../components/restock-modal';
import { TaxSettingsModal } from '../components/tax-settings-modal';
import { useTaxSettings } from '../api/tax-settings';

/** /manage/products: table on wide screens, cards on narrow ones. */
export function ProductsRoute() {
  const role = useSessionRole();
  const wide = useMediaQuery('(min-width: 62em)', true);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [category, setCategory] = useState('');
  // The low-stock filter lives in the address (`?lowStock=1`), so the tiles can link to it.
  const [params, setParams] = useSearchParams();
  const lowStock = params.get('lowStock') === '1';
  const query = useProducts({
    page,
    search: debounced || undefined,
    category: category || undefined,
  });
  // The product form names the shop's default tax type ("Shop default (B · …)").
  const taxSettings = useTaxSettings();
  const [taxSettingsOpen, setTaxSettingsOpen] = useState(false);
  const outOfStock = useMarkOutOfStock();
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Product | null | undefined>(undefined);
  const [offering, setOffering] = useState<Product | null>(null);
  const [restocking, setRestocking] = useState<Product | null>(null);
  const [emptying, setEmptying] = useState<Product | null>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const products = query.data?.products ?? [];
  const handlers: ProductActionHandlers = {
    onEdit: setEditing,
    onOffer: setOffering,
    onOutOfStock: setEmptying,
    onInStock: setRestocking,
    onDelete: role === 'admin' ? setDeleting : undefined,
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Products</Title>
        <Group gap="sm">
          {role === 'admin' && (
            <Button variant="default" onClick={() => setTaxSettingsOpen(true)}>
              Tax settings
            </Button>
          )}
          <Button onClick={() => setEditing(null)}>Add Product</Button>
        </Group>
      </Group>
      <Group>
        <TextInput
          aria-label="Search products"
          placeholder="Search products"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={320}
        />
        <NativeSelect
          aria-label="Filter by category"
          data={[
            { value: '', label: 'All categories' },
            ...(query.data?.categories ?? []).map((c) => ({ value: c._id, label: c.name })),
          ]}
          value={category}
          onChange={(e) => {
            setCategory(e.currentTarget.value);
            setPage(1);
          }}
          w={220}
        />
        <Switch
          label="Low stock only"
          checked={lowStock}
          onChange={(e) => setParams(e.currentTarget.checked ? { lowStock: '1' } : {})}
        />
      </Group>
      {lowStock && <LowStockTable search={debounced} />}
      {!lowStock && (
        <>
          <ListState
            isLoading={query.isPending}
            isError={query.isError}
            isEmpty={query.isSuccess && products.length === 0}
            emptyText={BACKOFFICE_MESSAGES.noProducts}
            errorText={BACKOFFICE_MESSAGES.listError}
          />
          {products.length > 0 &&
            (wide ? (
              <ProductsTable products={products} handlers={handlers} />
            ) : (
              <ProductCards products={products} handlers={handlers} />
            ))}
          <PaginationControl
            page={page}
            totalPages={query.data?.totalPages ?? 0}
            onChange={setPage}
          />
        </>
      )}
      <ProductFormModal
        opened={editing !== undefined}
        product={editing}
        categories={query.data?.categories ?? []}
        shopDefaultTaxType={taxSettings.data?.defaultTaxType}
        onClose={() => setEditing(undefined)}
      />
      <TaxSettingsModal opened={taxSettingsOpen} onClose={() => setTaxSettingsOpen(false)} />
      <OfferModal product={offering} onClose={() => setOffering(null)} />
      <RestockModal product={restocking} onClose={() => setRestocking(null)} />
      <ConfirmModal
        opened={emptying !== null}
        onClose={() => setEmptying(null)}
        onConfirm={() => outOfStock.mutateAsync(emptying!._id)}
        title="Mark out of stock"
        message={confirmQuestion('mark out of stock', 'product')}
        closeAfterMs={1000}
      />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => remove.mutateAsync(deleting!._id)}
        message={confirmQuestion('delete', 'product')}
      />
    </Stack>
  );
}
