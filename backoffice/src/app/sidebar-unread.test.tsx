import { screen } from '@testing-library/react';
import { createUser, renderWithProviders, signInAs } from '../testing/render';
import { Sidebar } from './sidebar';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('sidebar: unread messages', () => {
  afterEach(() => jest.restoreAllMocks());

  it('the Messages entry shows how many messages nobody has read yet', async () => {
    signInAs('staff');
    jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const url = new URL((input as Request).url);
      if (url.pathname !== '/api/contact-messages') return json(404, { message: 'No' });
      return json(200, {
        success: true,
        message: 'Messages retrieved',
        messages: [],
        totalMessages: 3,
        totalPages: 3,
        unread: 3,
      });
    });
    renderWithProviders(<Sidebar user={createUser({ role: 'staff' })} />);
    await screen.findByTestId('unread-messages');
    expect(screen.getByRole('link', { name: 'Messages, 3 unread' })).toBeInTheDocument();
    expect(screen.getByTestId('unread-messages')).toHaveTextContent('3');
  });
});
