import { fireEvent, screen, waitFor } from '@testing-library/react';
import { KRA_PIN_MESSAGE } from '@spc/shared-contracts';
import type { User } from '../../../lib/types';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { EditProfileModal } from './edit-profile-modal';

const user = { _id: 'u1', fullName: 'W K', phoneNumber: '0712345678' } as User;
const PIN_LABEL = 'KRA PIN (for a tax invoice in your name)';

describe('edit profile modal', () => {
  it('requires the full name and phone number with the spec texts', async () => {
    renderWithProviders(<EditProfileModal user={user} onClose={jest.fn()} />);
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    expect(screen.getByText('Phone Number is required')).toBeInTheDocument();
  });

  it('refuses a KRA PIN of the wrong form, sends a good one upper-cased, and an empty one as none', async () => {
    const { calls } = mockFetch({
      '/api/users/profile': async (req) => ({
        body: {
          success: true,
          message: 'Profile updated successfully',
          user: {
            ...user,
            kraPin: ((await req.clone().json()) as { kraPin: string }).kraPin || null,
          },
        },
      }),
    });
    const onClose = jest.fn();
    renderWithProviders(
      <EditProfileModal user={{ ...user, kraPin: 'A012345678Z' }} onClose={onClose} />,
    );
    const pin = screen.getByLabelText(PIN_LABEL);
    expect(pin).toHaveValue('A012345678Z');
    fireEvent.change(pin, { target: { value: 'A01234567Z' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(KRA_PIN_MESSAGE)).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    fireEvent.change(pin, { target: { value: ' p051234567x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await calls[0]!.clone().json()).toEqual({
      fullName: 'W K',
      phoneNumber: '0712345678',
      kraPin: 'P051234567X',
    });

    fireEvent.change(pin, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect((await calls[1]!.clone().json()).kraPin).toBe('');
  });
});
