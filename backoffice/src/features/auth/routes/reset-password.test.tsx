import { fireEvent, screen } from '@testing-library/react';
import { STAFF_PASSWORD_RULE_MESSAGE } from '@spc/shared-contracts';
import { Route, Routes } from 'react-router';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { ResetPasswordRoute } from './reset-password';

jest.setTimeout(30_000);
const slow = { timeout: 10_000 };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function setup() {
  renderWithProviders(
    <Routes>
      <Route path="/authenticate/resetPassword/:code" element={<ResetPasswordRoute />} />
      <Route path="/authenticate/login" element={<p>sign in page</p>} />
    </Routes>,
    { route: '/authenticate/resetPassword/code-from-the-mail' },
  );
}

function submit(password: string, confirmPassword: string) {
  fireEvent.change(screen.getByLabelText('New Password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm Password'), {
    target: { value: confirmPassword },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('console reset password page', () => {
  beforeEach(() => signInAs(null));
  afterEach(() => jest.restoreAllMocks());

  it('refuses two different passwords with the shop’s message, without calling the API', async () => {
    const fetchMock = jest.spyOn(global, 'fetch');
    setup();
    submit('Fresh#Desk2026', 'Fresh#Desk2027');
    expect(await screen.findByText('Password do not match', {}, slow)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks a staff or admin password of 12 characters, without calling the API', async () => {
    const fetchMock = jest.spyOn(global, 'fetch');
    setup();
    submit('Fresh#Desk7', 'Fresh#Desk7');
    expect(
      (await screen.findAllByText(STAFF_PASSWORD_RULE_MESSAGE, {}, slow)).length,
    ).toBeGreaterThan(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the link’s code with the new password, says so, and goes on to sign in', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
      json(200, {
        success: true,
        message: 'Your password has been reset. You can now sign in.',
      }),
    );
    setup();
    submit('Fresh#Desk2026', 'Fresh#Desk2026');
    expect(await screen.findByRole('status', {}, slow)).toHaveTextContent(
      'Your password has been reset. You can now sign in.',
    );
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(new URL(request.url).pathname).toBe('/api/auth/reset/password');
    expect(await request.json()).toEqual({
      code: 'code-from-the-mail',
      password: 'Fresh#Desk2026',
    });
    expect(await screen.findByText('sign in page', {}, slow)).toBeInTheDocument();
  });

  it('shows why an expired link fails and offers a new one', async () => {
    jest.spyOn(global, 'fetch').mockResolvedValue(
      json(400, {
        success: false,
        statusCode: 400,
        message: 'This reset link is not valid or has expired. Please ask for a new one.',
      }),
    );
    setup();
    submit('Fresh#Desk2026', 'Fresh#Desk2026');
    // The page's own alert (a toast says the same): the server's reason and a way to a new link.
    const message = 'This reset link is not valid or has expired. Please ask for a new one.';
    const link = await screen.findByRole('link', { name: 'Ask for a new link' }, slow);
    expect(link).toHaveAttribute('href', '/authenticate/forgotPassword');
    expect(link.closest('[role="alert"]')).toHaveTextContent(message);
  });
});
