import { fireEvent, screen } from '@testing-library/react';
import type { User } from '../../../lib/types';
import { renderWithProviders } from '../../../testing/render';
import { EditProfileModal } from './edit-profile-modal';

const user = { _id: 'u1', fullName: 'W K', phoneNumber: '0712345678' } as User;

describe('edit profile modal', () => {
  it('requires the full name and phone number with the spec texts', async () => {
    renderWithProviders(<EditProfileModal user={user} onClose={jest.fn()} />);
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    expect(screen.getByText('Phone Number is required')).toBeInTheDocument();
  });
});
