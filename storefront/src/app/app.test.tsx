import { render, screen } from '@testing-library/react';
import { App } from './app';

describe('storefront placeholder', () => {
  it('shows the shop headline', () => {
    render(<App />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Premium Quality Seedlings',
    );
    expect(screen.getByText('Beautiful seedlings to bring life to your space')).toBeInTheDocument();
  });
});
