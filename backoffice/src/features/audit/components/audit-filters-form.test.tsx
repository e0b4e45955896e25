import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { NO_FILTERS, type AuditFilters } from '../api/audit-query';
import { AuditFiltersForm } from './audit-filters-form';

const PEOPLE = [
  { id: 'a1', fullName: 'Shop Admin', role: 'admin' },
  { id: 's1', fullName: 'Grace Njeri', role: 'staff' },
];
const ACTIONS = ['auth.login', 'category.create', 'delivery-zone.create'];

function renderForm(filters: AuditFilters = NO_FILTERS) {
  const onChange = jest.fn();
  renderWithProviders(
    <AuditFiltersForm filters={filters} onChange={onChange} people={PEOPLE} actions={ACTIONS} />,
  );
  return onChange;
}

async function pick(label: string, option: string) {
  fireEvent.click(screen.getByRole('textbox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('audit filters form', () => {
  it('offers people by name and role, and activities in words, never as codes', async () => {
    renderForm();
    fireEvent.click(screen.getByRole('textbox', { name: 'Activity' }));
    const activities = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(activities).toEqual(['Created category', 'Created delivery zone', 'Signed in']);
    fireEvent.click(screen.getByRole('textbox', { name: 'Person' }));
    expect(await screen.findByRole('option', { name: 'Grace Njeri (Staff)' })).toBeInTheDocument();
  });

  it('applies a person, a role and an activity as they are picked', async () => {
    const onChange = renderForm();
    await pick('Person', 'Grace Njeri (Staff)');
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, user: 's1' });
    await pick('Role', 'Customer');
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, role: 'customer' });
    await pick('Activity', 'Created category');
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, action: 'category.create' });
  });

  it('hides customers’ sign-ins by default, and shows them when switched off', () => {
    const onChange = renderForm();
    const toggle = screen.getByRole('switch', { name: 'Hide customers’ sign-ins' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(onChange).toHaveBeenLastCalledWith({ hideCustomerSignIns: false });
  });

  it('has nothing to clear on the plain screen', () => {
    renderForm();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  it('clears back to the plain screen', () => {
    const onChange = renderForm({
      user: 's1',
      action: 'auth.login',
      from: '2026-11-01',
      to: '2026-11-02',
      hideCustomerSignIns: false,
    });
    expect(screen.getByRole('button', { name: 'Dates' })).toHaveTextContent(
      '01/11/2026 – 02/11/2026',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onChange).toHaveBeenLastCalledWith(NO_FILTERS);
  });
});
