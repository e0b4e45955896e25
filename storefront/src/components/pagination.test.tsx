import { fireEvent, render, screen } from '@testing-library/react';
import { Pagination } from './pagination';

const pages = () =>
  screen.getByRole('navigation', { name: 'Pagination' }).textContent!.replace(/[‹›]/g, '').trim();

describe('Pagination', () => {
  it('is hidden when there is a single page', () => {
    render(<Pagination page={1} totalPages={1} onChange={jest.fn()} />);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('shows up to 8 pages in full', () => {
    render(<Pagination page={1} totalPages={8} onChange={jest.fn()} />);
    expect(pages()).toBe('12345678');
  });

  it('shows first, last, a window and ellipses beyond 8 pages', () => {
    render(<Pagination page={10} totalPages={20} onChange={jest.fn()} />);
    expect(pages()).toBe('1…91011…20');
    expect(screen.getByRole('button', { name: 'Page 10' })).toHaveAttribute('aria-current', 'page');
  });

  it('never goes below page 1 or beyond the last page', () => {
    const onChange = jest.fn();
    const { rerender } = render(<Pagination page={1} totalPages={3} onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenLastCalledWith(2);
    rerender(<Pagination page={3} totalPages={3} onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
  });
});
