import { render, screen } from '@testing-library/react';
import { mockFetch } from '../testing/render';
import { App } from './app';
import { createQueryClient } from './provider';

const emptyList = {
  success: true,
  message: 'ok',
  products: [],
  categories: [],
  totalProducts: 0,
  totalsPerCategory: {},
  totalPages: 0,
  totalFilteredProducts: 0,
  page: 1,
  limit: 12,
  priceRange: { min: 0, max: 0 },
};

beforeEach(() => {
  localStorage.clear();
  mockFetch({ '/api/products': () => ({ body: emptyList }) });
});

describe('app routes', () => {
  it('shows the home page inside the layout at /', async () => {
    window.history.pushState({}, '', '/');
    render(<App client={createQueryClient()} />);
    expect(
      await screen.findByRole('heading', { name: 'Premium Quality Seedlings' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByText('Kiambu, Kenya')).toBeInTheDocument();
  });

  it('shows the login page without the layout', async () => {
    window.history.pushState({}, '', '/authenticate/login');
    render(<App client={createQueryClient()} />);
    expect(
      await screen.findByRole('heading', { name: 'Sign in to your account' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('sends a visitor of a guarded page to login', async () => {
    window.history.pushState({}, '', '/user/profile');
    render(<App client={createQueryClient()} />);
    expect(
      await screen.findByRole('heading', { name: 'Sign in to your account' }),
    ).toBeInTheDocument();
  });

  it('shows the 404 text for an unknown path', async () => {
    window.history.pushState({}, '', '/no/such/page');
    render(<App client={createQueryClient()} />);
    expect(
      await screen.findByText('404, the page you are looking for cannot be found!'),
    ).toBeInTheDocument();
  });
});
