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

  it('keeps next enabled past the last page counted when more follow, and names the total', () => {
    const onChange = jest.fn();
    renderWithProviders(
      <PaginationControl
        page={50}
        totalPages={50}
        more
        total="1,000+ orders"
        onChange={onChange}
      />,
    );
    expect(screen.getByTestId('pagination-total')).toHaveTextContent('1,000+ orders');
    expect(screen.getByRole('button', { name: '50' })).toHaveAttribute('aria-current', 'page');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChange).toHaveBeenCalledWith(51);
  });
});
