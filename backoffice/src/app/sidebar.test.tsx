import { screen, within } from '@testing-library/react';
import { createUser, renderWithProviders } from '../testing/render';
import { Sidebar } from './sidebar';

const linkNames = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('sidebar', () => {
  it('shows initials of the first and last name, the full name and the role', () => {
    renderWithProviders(
      <Sidebar user={createUser({ fullName: 'Wanjiku Mary Kamau', role: 'admin' })} />,
    );
    expect(screen.getByText('WK')).toBeInTheDocument();
    expect(screen.getByTestId('sidebar-name')).toHaveTextContent('Wanjiku Mary Kamau');
    expect(screen.getByTestId('sidebar-role')).toHaveTextContent('admin');
  });

  it('gives an admin every screen, grouped under sales, catalogue, customers and organisations, shop settings', () => {
    renderWithProviders(<Sidebar user={createUser({ role: 'admin' })} />);
    expect(linkNames()).toEqual([
      'Dashboard',
      'Orders',
      'Till',
      'Till sessions',
      'Payments to match',
      'Invoices',
      'eTIMS',
      'Bookings',
      'Reports',
      'eTIMS summary',
      'Categories',
      'Products',
      'Batches',
      'Organisations',
      'Quotations',
      'Messages',
      'Data requests',
      'Staff',
      'Shop pictures',
      'Delivery zones',
      'Privacy',
      'Audit trails',
    ]);
    const group = (name: string) =>
      within(screen.getByRole('group', { name }))
        .getAllByRole('link')
        .map((a) => a.textContent);
    expect(group('Sales')).toEqual([
      'Orders',
      'Till',
      'Till sessions',
      'Payments to match',
      'Invoices',
      'eTIMS',
      'Bookings',
      'Reports',
      'eTIMS summary',
    ]);
    expect(group('Catalogue')).toEqual(['Categories', 'Products', 'Batches']);
    expect(group('Customers and organisations')).toEqual([
      'Organisations',
      'Quotations',
      'Messages',
      'Data requests',
    ]);
    expect(group('Shop settings')).toEqual([
      'Staff',
      'Shop pictures',
      'Delivery zones',
      'Privacy',
      'Audit trails',
    ]);
    expect(screen.getByText('Shop settings')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Organisations' })).toHaveAttribute(
      'href',
      '/manage/organisations',
    );
    expect(screen.getByRole('link', { name: 'Quotations' })).toHaveAttribute(
      'href',
      '/manage/quotations',
    );
    expect(screen.getByRole('link', { name: 'Messages' })).toHaveAttribute(
      'href',
      '/manage/messages',
    );
    expect(screen.getByRole('link', { name: 'Delivery zones' })).toHaveAttribute(
      'href',
      '/admin/delivery-zones',
    );
    expect(screen.getByRole('link', { name: 'Shop pictures' })).toHaveAttribute(
      'href',
      '/admin/site-pictures',
    );
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/admin/orders');
    expect(screen.getByRole('link', { name: 'Audit trails' })).toHaveAttribute(
      'href',
      '/admin/audit-trails',
    );
  });

  it('gives staff their Orders, the Till, Bookings, Categories, Products, Batches and the Shop', () => {
    renderWithProviders(<Sidebar user={createUser({ role: 'staff' })} />);
    expect(linkNames()).toEqual([
      'Orders',
      'Till',
      'Payments to match',
      'Invoices',
      'eTIMS',
      'Bookings',
      'Categories',
      'Products',
      'Batches',
      'Organisations',
      'Quotations',
      'Messages',
      'Shop',
    ]);
    expect(screen.queryByRole('group', { name: 'Shop settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/staff/orders');
    expect(screen.getByRole('link', { name: 'Bookings' })).toHaveAttribute(
      'href',
      '/manage/bookings',
    );
    expect(screen.getByRole('link', { name: 'Batches' })).toHaveAttribute(
      'href',
      '/manage/batches',
    );
    expect(screen.getByRole('link', { name: 'Shop' })).toHaveAttribute(
      'href',
      'http://localhost:5173/shop/products',
    );
    expect(screen.queryByRole('link', { name: 'Reports' })).not.toBeInTheDocument();
  });

  it('gives anyone else only Shop and My Orders', () => {
    renderWithProviders(<Sidebar user={createUser({ role: 'customer' })} />);
    expect(linkNames()).toEqual(['Shop', 'My Orders']);
  });
});
