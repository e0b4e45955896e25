import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../testing/render';
import { PaginationControl } from './pagination-control';

const pages = () =>
  screen
    .getByRole('navigation', { name: 'Pagination' })
    .textContent?.replace('Previous', '')
    .replace('Next', '');

describe('pagination control', () => {
  it('shows every page up to 8 and disables previous on page 1', () => {
    renderWithProviders(<PaginationControl page={1} totalPages={8} onChange={jest.fn()} />);
    expect(pages()).toBe('12345678');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('shows first, last, a window and ellipses beyond 8 pages', () => {
    renderWithProviders(<PaginationControl page={20} totalPages={44} onChange={jest.fn()} />);
    expect(pages()).toBe('1…192021…44');
    expect(screen.getByRole('button', { name: '20' })).toHaveAttribute('aria-current', 'page');
  });

  it('disables next on the last page and moves back with previous', () => {
    const onChange = jest.fn();
    renderWithProviders(<PaginationControl page={44} totalPages={44} onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onChange).toHaveBeenCalledWith(43);
  });

  it('keeps next enabled past the last page counted when the total is a lower bound, and names it', () => {
    const onChange = jest.fn();
    renderWithProviders(
      <PaginationControl
        page={50}
        totalPages={50}
        total={{ total: 1000, totalIsLowerBound: true }}
        noun={{ one: 'order', many: 'orders' }}
        onChange={onChange}
      />,
    );
    expect(screen.getByTestId('pagination-total')).toHaveTextContent('1,000+ orders');
    expect(screen.getByRole('button', { name: '50' })).toHaveAttribute('aria-current', 'page');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChange).toHaveBeenCalledWith(51);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onChange).toHaveBeenCalledWith(49);
  });

  it('shows a lower bound that fills a single page, with next enabled', () => {
    renderWithProviders(
      <PaginationControl
        page={1}
        totalPages={1}
        total={{ total: 20, totalIsLowerBound: true }}
        onChange={jest.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.queryByTestId('pagination-total')).toBeNull();
  });

  it('names an exact total and stops at its last page', () => {
    renderWithProviders(
      <PaginationControl
        page={2}
        totalPages={2}
        total={{ total: 37, totalIsLowerBound: false }}
        noun={{ one: 'order', many: 'orders' }}
        onChange={jest.fn()}
      />,
    );
    expect(screen.getByTestId('pagination-total')).toHaveTextContent(/^37 orders$/);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
