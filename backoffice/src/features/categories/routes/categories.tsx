import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal, confirmQuestion } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { useDeleteCategory } from '../api/delete-category';
import { useCategories, type Category } from '../api/get-categories';
import { CategoryModal } from '../components/category-modal';
import { productCountLabel } from '../components/product-count';

/** /manage/categories: a grid of 2 columns, 3 from 768 px, searched and paged by the API. */
export function CategoriesRoute() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const query = useCategories({ page, search: debounced || undefined });
  const remove = useDeleteCategory();
  const [editing, setEditing] = useState<Category | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const categories = query.data?.categories ?? [];
  const totalPages = query.data?.totalPages ?? 0;

  // A page that no longer exists (its last category was deleted) gives way to the last one.
  if (query.isSuccess && !query.isPlaceholderData && totalPages > 0 && page > totalPages)
    setPage(totalPages);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Categories</Title>
        <Button onClick={() => setEditing(null)}>add new category</Button>
      </Group>
      <TextInput
        aria-label="Search categories"
        placeholder="Search categories"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        w={{ base: '100%', xs: 320 }}
      />
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && categories.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noCategories}
      />
      <SimpleGrid cols={{ base: 2, sm: 3 }} type="media">
        {categories.map((category) => (
          <Card key={category._id} withBorder padding="sm">
            <Text fw={700}>{category.name}</Text>
            <Text size="sm" c="dimmed">
              {productCountLabel(category.productCount)}
            </Text>
            <Text size="sm" mt="xs" lineClamp={3}>
              {category.description}
            </Text>
            <Group mt="md" gap={6}>
              <Button size="xs" variant="light" onClick={() => setEditing(category)}>
                edit
              </Button>
              <Button size="xs" variant="light" color="red" onClick={() => setDeleting(category)}>
                delete
              </Button>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <PaginationControl page={page} totalPages={totalPages} onChange={setPage} />
      <CategoryModal
        opened={editing !== undefined}
        category={editing}
        onClose={() => setEditing(undefined)}
      />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => remove.mutateAsync(deleting!._id)}
        message={confirmQuestion('delete', 'category')}
      />
    </Stack>
  );
}
