import { screen, within } from '@testing-library/react';
import { createUser, renderWithProviders } from '../testing/render';
import { Sidebar } from './sidebar';
import { currentLink, sidebarLinks } from './sidebar-links';

const current = (role: 'admin' | 'staff' | 'customer', pathname: string) =>
  currentLink(sidebarLinks(role), pathname)?.label;

describe('the current section in the sidebar', () => {
  it('is the link of the page, or of a page above it', () => {
    expect(current('admin', '/admin/orders')).toBe('Orders');
    expect(current('admin', '/admin/orders/665f1c2b9d3e4a0012345678')).toBe('Orders');
    expect(current('admin', '/manage/categories/')).toBe('Categories');
    expect(current('staff', '/staff/orders')).toBe('Orders');
    expect(current('staff', '/manage/products')).toBe('Products');
  });

  it('is the section a page without a link of its own belongs to', () => {
    expect(current('admin', '/create-staff')).toBe('Staff');
    expect(current('admin', '/edit-staff/665f1c2b9d3e4a0012345678')).toBe('Staff');
    expect(current('admin', '/colleagues/665f1c2b9d3e4a0012345678')).toBe('Staff');
    expect(current('admin', '/edit-user/665f1c2b9d3e4a0012345678')).toBe('Dashboard');
  });

  it('is none on a page outside every section, and never a link that leaves the console', () => {
    expect(current('admin', '/user/profile')).toBeUndefined();
    expect(current('admin', '/admin/ordersXYZ')).toBeUndefined();
    expect(current('customer', '/shop/products')).toBeUndefined();
  });

  it('marks only the current link with aria-current="page" and the active style', () => {
    renderWithProviders(<Sidebar user={createUser({ role: 'admin' })} />, {
      route: '/edit-staff/665f1c2b9d3e4a0012345678',
    });
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    const staff = nav.getByRole('link', { name: 'Staff' });
    expect(staff).toHaveAttribute('aria-current', 'page');
    expect(staff).toHaveAttribute('data-active');
    const others = nav.getAllByRole('link').filter((a) => a !== staff);
    expect(others.length).toBeGreaterThan(0);
    for (const link of others) {
      expect(link).not.toHaveAttribute('aria-current');
      expect(link).not.toHaveAttribute('data-active');
    }
  });

  it('marks staff’s Orders on their landing page', () => {
    renderWithProviders(<Sidebar user={createUser({ role: 'staff' })} />, {
      route: '/staff/orders',
    });
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Categories' })).not.toHaveAttribute('aria-current');
  });
});
