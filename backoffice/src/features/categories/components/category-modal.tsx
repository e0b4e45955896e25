import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { categoryFormSchema, type CategoryForm } from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import type { Category } from '../api/get-categories';
import { useSaveCategory } from '../api/save-category';

/** Add/Edit Category: name and description. */
export function CategoryModal({
  opened,
  onClose,
  category,
}: {
  opened: boolean;
  onClose: () => void;
  category?: Category | null;
}) {
  const mutation = useSaveCategory();
  const form = useForm<CategoryForm>({
    resolver: zodResolver(categoryFormSchema),
    values: { name: category?.name ?? '', description: category?.description ?? '' },
  });
  const onSubmit = form.handleSubmit((body) =>
    mutation.mutate(
      { id: category?._id, body },
      { onSuccess: () => setTimeout(onClose, 1000), onError: () => form.reset() },
    ),
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={category ? 'Edit Category' : 'Add Category'}
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Category Name"
            {...form.register('name')}
            error={form.formState.errors.name?.message}
          />
          <Textarea
            label="Description"
            autosize
            minRows={3}
            {...form.register('description')}
            error={form.formState.errors.description?.message}
          />
          <Button type="submit" loading={mutation.isPending}>
            {category ? 'Update Category' : 'Add Category'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
