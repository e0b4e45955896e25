import { fireEvent, screen, waitFor } from '@testing-library/react';
import { TILL_FORM_MESSAGES } from '@spc/shared-contracts';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { createTillSession, fakeApi, json } from '../../../testing/till';
import { TillRoute } from './till';

describe('the till page', () => {
  afterEach(() => jest.restoreAllMocks());

  it('opens a session with the float when none is open, then sells', async () => {
    let session: ReturnType<typeof createTillSession> | null = null;
    const seen = fakeApi(({ method, path, body }) => {
      if (path === '/api/till/sessions/current')
        return json(200, { success: true, message: '', session });
      if (method === 'POST' && path === '/api/till/sessions') {
        session = createTillSession({ float: (body as { float: number }).float });
        return json(201, { success: true, message: 'Till open', session });
      }
      if (path.startsWith('/api/products'))
        return json(200, {
          success: true,
          message: '',
          products: [],
          totalPages: 0,
          totalProducts: 0,
        });
      return undefined;
    });
    signInAs('staff');
    renderWithProviders(<TillRoute />, { route: '/till' });
    const open = await screen.findByRole('button', { name: 'Open till' });
    fireEvent.click(open);
    expect(await screen.findByText(TILL_FORM_MESSAGES.float)).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Float (cash in the drawer)' }), {
      target: { value: '2000' },
    });
    fireEvent.click(open);
    expect(await screen.findByRole('tab', { name: 'Sell' })).toBeInTheDocument();
    expect(screen.getByText(/float KES 2,000/)).toBeInTheDocument();
    expect(await screen.findByText('No products found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Close the day' })).toHaveAttribute(
      'href',
      `/till/sessions/${createTillSession()._id}`,
    );
    expect(seen.find((r) => r.method === 'POST')?.body).toEqual({ float: 2000 });
  });

  it('says when the till cannot be loaded, and tries again', async () => {
    let fail = true;
    fakeApi(({ path }) => {
      if (path !== '/api/till/sessions/current') return undefined;
      if (fail) return json(500, { success: false, message: 'The database is not answering' });
      return json(200, { success: true, message: '', session: null });
    });
    signInAs('staff');
    renderWithProviders(<TillRoute />, { route: '/till' });
    expect(await screen.findByText('The database is not answering')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Open till' })).toBeInTheDocument(),
    );
  });
});
