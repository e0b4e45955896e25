import { render, screen } from '@testing-library/react';
import { App } from './app';
import { Providers } from './providers';

describe('back-office placeholder', () => {
  it('shows the console title inside the Mantine theme', () => {
    render(
      <Providers>
        <App />
      </Providers>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Back office');
    expect(screen.getByRole('status')).toHaveTextContent('Checking the shop…');
  });
});
