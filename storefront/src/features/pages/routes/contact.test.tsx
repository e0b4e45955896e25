import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { ContactRoute } from './contact';

describe('the contact page', () => {
  it('takes its subject from the link that opened it (an order to cancel and refund)', async () => {
    const { calls } = mockFetch({
      '/api/contact': () => ({ body: { success: true, message: 'Your message was sent' } }),
    });
    renderWithProviders(<ContactRoute />, {
      path: '/contactUs?subject=Cancel%20order%20SPD7K3MX9QA%20and%20refund%20me',
      route: '/contactUs',
    });
    expect(screen.getByLabelText('Subject')).toHaveValue('Cancel order SPD7K3MX9QA and refund me');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Wanjiku Kamau' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'w@example.co.ke' } });
    fireEvent.change(screen.getByLabelText('Message'), {
      target: { value: 'I paid KES 500 by mistake' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Your message was sent')).toBeInTheDocument();
    const sent = calls.find((c) => c.url.endsWith('/api/contact'))!;
    await waitFor(async () =>
      expect(await sent.clone().json()).toMatchObject({
        subject: 'Cancel order SPD7K3MX9QA and refund me',
      }),
    );
  });

  it('starts with an empty subject otherwise', () => {
    mockFetch({});
    renderWithProviders(<ContactRoute />, { path: '/contactUs', route: '/contactUs' });
    expect(screen.getByLabelText('Subject')).toHaveValue('');
  });
});
