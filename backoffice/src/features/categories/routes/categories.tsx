import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal, confirmQuestion } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import { useDeleteCategory } from '../api/delete-category';
import { useCategories, type Category } from '../api/get-categories';
import { CategoryModal } from '../components/category-modal';

/** /manage/categories: a grid of 2 columns, 3 from 768 px. */
export function CategoriesRoute() {
  const query = useCategories();
  const remove = useDeleteCategory();
  const [editing, setEditing] = useState<Category | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const categories = query.data?.categories ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Categories</Title>
        <Button onClick={() => setEditing(null)}>add new category</Button>
      </Group>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && categories.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noCategories}
      />
      <SimpleGrid cols={{ base: 2, sm: 3 }} type="media">
        {categories.map((category) => (
          <Card key={category._id} withBorder>
            <Text fw={700}>{category.name}</Text>
            <Text size="sm" c="dimmed">
              {category.productCount} products
            </Text>
            <Text size="sm" mt="xs" lineClamp={3}>
              {category.description}
            </Text>
            <Group mt="md" gap="xs">
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
