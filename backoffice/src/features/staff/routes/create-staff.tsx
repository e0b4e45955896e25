import { createStaffFormSchema, TIMINGS } from '@spc/shared-contracts';
import { useNavigate } from 'react-router';
import { PersonForm } from '../../../components/person-form';
import { paths } from '../../../config/paths';
import { useCreateStaff } from '../api/create-staff';

/** /create-staff: Add Staff, then back to the staff list after 2 s. */
export function CreateStaffRoute() {
  const navigate = useNavigate();
  const mutation = useCreateStaff();
  return (
    <PersonForm
      title="Add Staff"
      schema={createStaffFormSchema}
      defaultValues={{ fullName: '', email: '', phoneNumber: '', password: '' }}
      withPassword
      submitLabel="Add Staff"
      pending={mutation.isPending || mutation.isSuccess}
      onSubmit={(values, reset) =>
        mutation.mutate(values, {
          onSuccess: () =>
            setTimeout(() => navigate(paths.adminStaff), TIMINGS.redirectAfterSuccessMs),
          onError: reset,
        })
      }
    />
  );
}
