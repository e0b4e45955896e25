import { act, fireEvent, screen } from '@testing-library/react';
import { useUiStore } from '../../../stores/ui-store';
import { renderWithProviders } from '../../../testing/render';
import { ChangePasswordModal } from './change-password-modal';

beforeEach(() => act(() => useUiStore.setState({ changePasswordOpen: true })));

describe('change password modal', () => {
  it('shows the three required messages', async () => {
    renderWithProviders(<ChangePasswordModal />);
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Old Password is required')).toBeInTheDocument();
    expect(screen.getByText('New Password is required')).toBeInTheDocument();
    expect(screen.getByText('Confirm Password is required')).toBeInTheDocument();
  });

  it('toggles each password field on its own', () => {
    renderWithProviders(<ChangePasswordModal />);
    fireEvent.click(screen.getByRole('button', { name: 'Show New Password' }));
    expect(screen.getByLabelText('New Password')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Current Password')).toHaveAttribute('type', 'password');
  });

  it('closes on Escape', () => {
    renderWithProviders(<ChangePasswordModal />);
    expect(screen.getByRole('dialog', { name: 'Change password' })).toBeInTheDocument();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(useUiStore.getState().changePasswordOpen).toBe(false);
  });
});
