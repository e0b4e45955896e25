import { fireEvent, screen } from '@testing-library/react';
import { createStaffFormSchema, editPersonFormSchema } from '@spc/shared-contracts';
import { renderWithProviders } from '../testing/render';
import { PersonForm } from './person-form';

describe('staff and user forms', () => {
  it('Add Staff shows the spec messages', async () => {
    const onSubmit = jest.fn();
    renderWithProviders(
      <PersonForm
        title="Add Staff"
        schema={createStaffFormSchema}
        defaultValues={{ fullName: '', email: '', phoneNumber: '', password: '' }}
        withPassword
        submitLabel="Add Staff"
        pending={false}
        onSubmit={onSubmit}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Add Staff' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add Staff' }));
    expect(await screen.findByText('FullName is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Phone number is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a phone number longer than 10 characters', async () => {
    renderWithProviders(
      <PersonForm
        title="Edit Staff"
        schema={editPersonFormSchema}
        defaultValues={{
          fullName: 'Grace Njeri',
          email: 'grace@spc.local',
          phoneNumber: '+254711000222',
        }}
        submitLabel="Update Staff"
        pending={false}
        onSubmit={jest.fn()}
      />,
    );
    expect(screen.getByLabelText('Full Name')).toHaveValue('Grace Njeri');
    fireEvent.click(screen.getByRole('button', { name: 'Update Staff' }));
    expect(await screen.findByText('Invalid phone number format')).toBeInTheDocument();
  });
});
