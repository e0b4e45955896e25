import { fireEvent, screen } from '@testing-library/react';
import { STAFF_PASSWORD_RULE_MESSAGE } from '@spc/shared-contracts';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { ChangePasswordModal } from './change-password-modal';

jest.setTimeout(30_000);
const slow = { timeout: 10_000 };

describe('back office change password', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('asks a staff or admin password of 12 characters, without calling the API', async () => {
    const fetchMock = jest.spyOn(global, 'fetch');
    renderWithProviders(<ChangePasswordModal opened onClose={() => undefined} />);
    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    type('Old Password', 'Staff#123456');
    type('New Password', 'Fresh#Desk7');
    type('Confirm Password', 'Fresh#Desk7');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(
      (await screen.findAllByText(STAFF_PASSWORD_RULE_MESSAGE, {}, slow)).length,
    ).toBeGreaterThan(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
