import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { PrivacyRoute } from './privacy';

const notice = {
  success: true,
  message: 'Privacy notice retrieved',
  notice: {
    text: '## What we collect and why\n\n- **Your phone**: to text you about orders.\n\nWe never sell your data.',
    controller: {
      name: 'Seedling Propagation Centre',
      phone: '0712000111',
      whatsapp: '254712000111',
      email: 'shop@example.co.ke',
    },
    retention: {
      taxRetentionYears: 5,
      smsOutboxDays: 180,
      mailLogDays: 180,
      contactMessageDays: 365,
      requestDueDays: 7,
    },
    updatedAt: null,
  },
};

describe('the privacy notice', () => {
  it("shows the controller and the shop's text as headings, lists and bold, never as HTML", async () => {
    mockFetch({ '/api/privacy/notice': () => ({ body: notice }) });
    renderWithProviders(<PrivacyRoute />);
    expect(await screen.findByRole('heading', { name: 'What we collect and why' })).toBeVisible();
    expect(screen.getByText('Seedling Propagation Centre')).toBeVisible();
    expect(screen.getByRole('link', { name: 'shop@example.co.ke' })).toHaveAttribute(
      'href',
      'mailto:shop@example.co.ke',
    );
    expect(screen.getByText('Your phone').tagName).toBe('STRONG');
    expect(screen.getByRole('listitem')).toHaveTextContent('Your phone: to text you about orders.');
  });

  it('lets a guest ask about their data: a code by SMS, then the due date', async () => {
    const { calls } = mockFetch({
      '/api/privacy/notice': () => ({ body: notice }),
      '/api/privacy/requests': () => ({
        status: 201,
        body: { success: true, message: 'sent', requestId: 'r-1', codeExpiresAt: '' },
      }),
      '/api/privacy/requests/r-1/confirm': async (req) => {
        const { code } = (await req.json()) as { code: string };
        return code === '123456'
          ? {
              body: {
                success: true,
                message: 'ok',
                request: { status: 'open', dueAt: '2026-12-02T10:00:00.000Z' },
              },
            }
          : { status: 400, body: { success: false, message: 'The code is not correct' } };
      },
    });
    renderWithProviders(<PrivacyRoute />);
    fireEvent.change(await screen.findByLabelText('Purchase number'), {
      target: { value: 'spd7k3mx9qa' },
    });
    fireEvent.change(screen.getByLabelText('Phone number given with the order'), {
      target: { value: '0712345678' },
    });
    fireEvent.click(screen.getByLabelText('my data erased'));
    fireEvent.click(screen.getByRole('button', { name: 'Send me a code by SMS' }));
    expect(
      await screen.findByText(
        /If 0712345678 is the phone given with a guest order of this purchase number, we sent it a 6-digit code by SMS/,
      ),
    ).toBeVisible();
    const asked = calls.find((c) => c.url.endsWith('/api/privacy/requests'))!;
    expect(await asked.json()).toEqual({
      purchaseNumber: 'SPD7K3MX9QA',
      phoneNumber: '0712345678',
      kind: 'erasure',
    });

    fireEvent.change(screen.getByLabelText('Code from the SMS'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm my request' }));
    expect(await screen.findByText('The code is not correct')).toBeVisible();
    fireEvent.change(screen.getByLabelText('Code from the SMS'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm my request' }));
    expect(
      await screen.findByText('Your request is confirmed. The shop answers by 2 December 2026.'),
    ).toHaveAttribute('role', 'status');
  });
});
