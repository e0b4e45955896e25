import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { ResetPasswordRoute } from './reset-password';

const route = {
  path: '/authenticate/resetPassword/tok123',
  route: '/authenticate/resetPassword/:code',
};

describe('reset password page', () => {
  it("says 'Password do not match' when the two differ", async () => {
    renderWithProviders(<ResetPasswordRoute />, route);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Secret@1' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Secret@9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password do not match')).toBeInTheDocument();
  });

  it('sends the route token as code', async () => {
    const { calls } = mockFetch({
      '/api/auth/reset/password': () => ({ body: { success: true, message: 'Password reset' } }),
    });
    renderWithProviders(<ResetPasswordRoute />, route);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Secret@1' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Secret@1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password reset')).toBeInTheDocument();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await calls[0]!.clone().json()).toEqual({ code: 'tok123', password: 'Secret@1' });
  });
});
