import { editPersonFormSchema, TIMINGS } from '@spc/shared-contracts';
import { useNavigate, useParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PersonForm } from '../../../components/person-form';
import { paths } from '../../../config/paths';
import { useStaffMember } from '../api/get-staff-member';
import { useUpdateStaff } from '../api/update-staff';

/** /edit-staff/:id (and /colleagues/:id): back to the staff list 2 s after saving. */
export function EditStaffRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useStaffMember(id);
  const mutation = useUpdateStaff();
  if (!query.data)
    return (
      <ListState isLoading={query.isPending} isError={query.isError} isEmpty={false} emptyText="" />
    );
  const member = query.data;
  return (
    <PersonForm
      title="Edit Staff"
      schema={editPersonFormSchema}
      defaultValues={{
        fullName: member.fullName,
        email: member.email,
        phoneNumber: member.phoneNumber,
      }}
      submitLabel="Update Staff"
      pending={mutation.isPending}
      onSubmit={(values, reset) =>
        mutation.mutate(
          { id, values },
          {
            onSuccess: () =>
              setTimeout(() => navigate(paths.adminStaff), TIMINGS.redirectAfterSuccessMs),
            onError: reset,
          },
        )
      }
    />
  );
}
