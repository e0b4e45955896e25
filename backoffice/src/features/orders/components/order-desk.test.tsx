import { act, fireEvent, screen, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { statusLabel } from '@spc/shared-contracts';
import { createOrder } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { BulkResult } from './bulk-bar';
import { OrdersTable } from './orders-table';
import { filterFromParams, useOrderFilters } from './use-order-filters';

describe('orders desk pieces', () => {
  beforeEach(() => signInAs('staff'));

  it('reads statuses as words in the table, never as the stored value', () => {
    const order = createOrder({ orderStatus: 'InTransit', paymentStatus: 'Paid' });
    renderWithProviders(<OrdersTable orders={[order]} page={1} role="staff" />);
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getByText('In transit')).toBeInTheDocument();
    expect(within(row).queryByText('InTransit')).not.toBeInTheDocument();
    expect(statusLabel('Unfulfilled')).toBe('Unfulfilled');
  });

  it('ticks orders one by one and all at once when given a selection', () => {
    const a = createOrder({ _id: 'a1', purchaseNumber: 'SPDAAAAAAAA' });
    const b = createOrder({ _id: 'b2', purchaseNumber: 'SPDBBBBBBBB' });
    const toggle = jest.fn();
    const setAll = jest.fn();
    renderWithProviders(
      <OrdersTable
        orders={[a, b]}
        page={1}
        role="staff"
        selection={{ selected: new Set(['a1']), toggle, setAll }}
      />,
    );
    expect(screen.getByLabelText('Select order SPDAAAAAAAA')).toBeChecked();
    expect(screen.getByLabelText('Select order SPDBBBBBBBB')).not.toBeChecked();
    fireEvent.click(screen.getByLabelText('Select order SPDBBBBBBBB'));
    expect(toggle).toHaveBeenCalledWith('b2');
    fireEvent.click(screen.getByLabelText('Select all orders shown'));
    expect(setAll).toHaveBeenCalledWith(['a1', 'b2'], true);
  });

  it('shows a bulk result with the count done and each refused order with its reason', () => {
    renderWithProviders(
      <BulkResult
        result={{
          success: true,
          message: '3 orders done, 1 order refused',
          action: 'inTransit',
          done: 3,
          doneOrders: [],
          refused: [
            {
              _id: 'c3',
              purchaseNumber: 'SPDCCCCCCCC',
              code: 'ILLEGAL_TRANSITION',
              message: 'This order is cancelled; only pending or processing orders can be sent out',
            },
          ],
        }}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByText('3 orders done, 1 order refused')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-refused')).toHaveTextContent(
      'SPDCCCCCCCC: This order is cancelled; only pending or processing orders can be sent out',
    );
  });

  it('reads the filters from the URL and leaves out what is not a valid value', () => {
    expect(
      filterFromParams(
        new URLSearchParams(
          'queue=toDispatch&status=InTransit&paymentStatus=Paid&from=2026-11-01&to=2026-11-30&search=%200712%20&sortBy=totalAmount&sortOrder=asc&page=3',
        ),
      ),
    ).toEqual({
      page: 3,
      queue: 'toDispatch',
      status: 'InTransit',
      paymentStatus: 'Paid',
      from: '2026-11-01',
      to: '2026-11-30',
      search: '0712',
      sortBy: 'totalAmount',
      sortOrder: 'asc',
    });
    expect(
      filterFromParams(
        new URLSearchParams('queue=x&status=Lost&from=yesterday&page=-2&sortBy=price'),
      ),
    ).toEqual({
      page: 1,
      queue: undefined,
      status: undefined,
      paymentStatus: undefined,
      search: undefined,
      from: undefined,
      to: undefined,
      sortBy: undefined,
      sortOrder: undefined,
    });
  });

  it('keeps both of two filter changes made before the list renders again', () => {
    let filters!: ReturnType<typeof useOrderFilters>;
    function Probe() {
      filters = useOrderFilters();
      return <output aria-label="query">{useLocation().search}</output>;
    }
    renderWithProviders(<Probe />, { route: '/staff/orders?status=Pending&page=2' });
    act(() => {
      // A "from" date, then a "to" date, in one go (quick typing on a slow phone).
      filters.update({ from: '2026-11-01' });
      filters.update({ to: '2026-11-30' });
    });
    const query = new URLSearchParams(screen.getByLabelText('query').textContent ?? '');
    expect(Object.fromEntries(query)).toEqual({
      status: 'Pending',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    act(() => filters.setPage(3));
    expect(screen.getByLabelText('query').textContent).toBe(
      '?status=Pending&from=2026-11-01&to=2026-11-30&page=3',
    );
  });
});
