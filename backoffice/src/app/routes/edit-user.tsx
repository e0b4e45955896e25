import { Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { UserOrders } from '../../features/orders/components/user-orders';
import { EditUserRoute } from '../../features/users/routes/edit-user';

/** /edit-user/:id: the user's form, then their orders. */
export function EditUserPage() {
  const { id = '' } = useParams();
  return (
    <Stack gap="xl">
      <EditUserRoute />
      <UserOrders userId={id} />
    </Stack>
  );
}
