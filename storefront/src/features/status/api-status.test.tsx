import { render, screen } from '@testing-library/react';
import { createApiClient } from '@spc/shared-contracts/client';
import { ApiStatus } from './api-status';

function clientAnswering(status: number, body: unknown) {
  return createApiClient({
    baseUrl: 'http://api.test',
    fetch: async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  });
}

describe('ApiStatus', () => {
  it('says the shop is online when the API and its database are up', async () => {
    render(<ApiStatus client={clientAnswering(200, { success: true, status: 'ok', db: 'up' })} />);
    expect(screen.getByRole('status')).toHaveTextContent('Checking the shop…');
    expect(await screen.findByText('The shop is online.')).toBeInTheDocument();
  });

  it('says the shop cannot be reached when the API answers 503', async () => {
    render(
      <ApiStatus client={clientAnswering(503, { success: false, status: 'error', db: 'down' })} />,
    );
    expect(await screen.findByText('The shop cannot be reached right now.')).toBeInTheDocument();
  });
});
