import { editPersonFormSchema, TIMINGS } from '@spc/shared-contracts';
import { useNavigate, useParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PersonForm } from '../../../components/person-form';
import { paths } from '../../../config/paths';
import { useUser } from '../api/get-user';
import { useUpdateUser } from '../api/update-user';

/** /edit-user/:id: back to the dashboard 2 s after saving. */
export function EditUserRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useUser(id);
  const mutation = useUpdateUser();
  if (!query.data)
    return (
      <ListState isLoading={query.isPending} isError={query.isError} isEmpty={false} emptyText="" />
    );
  const user = query.data;
  return (
    <PersonForm
      title="Edit User"
      schema={editPersonFormSchema}
      defaultValues={{ fullName: user.fullName, email: user.email, phoneNumber: user.phoneNumber }}
      submitLabel="Update User"
      pending={mutation.isPending}
      onSubmit={(values, reset) =>
        mutation.mutate(
          { id, values },
          {
            onSuccess: () =>
              setTimeout(() => navigate(paths.adminDashboard), TIMINGS.redirectAfterSuccessMs),
            onError: reset,
          },
        )
      }
    />
  );
}
