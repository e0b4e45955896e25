import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { createOrder, createOrderMoney } from '../../../testing/factories';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { AdminOrderDetailRoute } from './order-detail';

/** The detail's answer for `order`; any other call answers an empty success. */
function answer(order: ReturnType<typeof createOrder>) {
  jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === `/api/orders/${order._id}/detail`)
      return json(200, {
        success: true,
        message: '',
        order,
        timeline: [],
        actions: [],
        documents: { receipt: { available: false }, deliveryNote: { available: false } },
        money: createOrderMoney(),
        shop: { name: 'Seedling Propagation Centre', place: 'Kiambu', phone: '', website: '' },
      });
    return json(200, { success: true, message: '', payments: [] });
  });
}

describe("an order's page", () => {
  afterEach(() => jest.restoreAllMocks());

  it("names an accepted quotation's LPO, its quotation and organisation, and each line's batch", async () => {
    const base = createOrder();
    const order = {
      ...base,
      quotation: { quotationId: 'q1', organisationId: 'org1', lpoNumber: 'LPO/NDR/2026/0114' },
      onAccount: true,
      products: [{ ...base.products[0]!, batchId: 'b1' }],
    } as typeof base;
    answer(order);
    signInAs('admin');
    renderWithProviders(
      <Routes>
        <Route path="/admin/orders/:id" element={<AdminOrderDetailRoute />} />
      </Routes>,
      { route: `/admin/orders/${order._id}` },
    );
    await screen.findByRole('heading', { name: 'From a quotation' });
    expect(screen.getByText('LPO/NDR/2026/0114')).toBeTruthy();
    expect(
      screen.getByText('On account: paid by its invoice; it does not expire unpaid'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'The quotation' }).getAttribute('href')).toBe(
      '/manage/quotations/q1',
    );
    expect(screen.getByRole('link', { name: 'The organisation' }).getAttribute('href')).toBe(
      '/manage/organisations/org1',
    );
    expect(screen.getByRole('link', { name: 'a growing batch' }).getAttribute('href')).toBe(
      '/manage/batches/b1',
    );
  });

  it('shows no quotation on an ordinary order', async () => {
    const order = createOrder();
    answer(order);
    signInAs('admin');
    renderWithProviders(
      <Routes>
        <Route path="/admin/orders/:id" element={<AdminOrderDetailRoute />} />
      </Routes>,
      { route: `/admin/orders/${order._id}` },
    );
    await screen.findByRole('heading', { name: `Order ${order.purchaseNumber}` });
    expect(screen.queryByRole('heading', { name: 'From a quotation' })).toBeNull();
  });
});
