import { screen } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { ReportsRoute } from './reports';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(refunds: { orders: number; amount: number }) {
  return jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    return json(200, {
      success: true,
      message: 'Sales report',
      from: url.searchParams.get('from'),
      to: url.searchParams.get('to'),
      series: [{ date: url.searchParams.get('to'), orders: 1, revenue: 1585 }],
      topProducts: [],
      totals: { orders: 1, revenue: 1585, averageOrderValue: 1585, refunds },
      salesBreakdown: { productSales: 1285, deliveryFees: 300, series: [] },
      moneyReceived: { deposits: 9000, depositCount: 2, balances: 10500, balanceCount: 1 },
    });
  });
}

describe('sales report screen', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it('shows the refunds of the range and why they are not in revenue', async () => {
    const fetchMock = answer({ orders: 2, amount: 3540 });
    renderWithProviders(<ReportsRoute />);
    expect(await screen.findByTestId('report-refunds')).toHaveTextContent('KSH 3,540');
    expect(screen.getByTestId('report-refunds-note')).toHaveTextContent(
      '2 paid orders cancelled and refunded; not counted in Revenue or Total Sales',
    );
    expect(screen.getByTestId('report-revenue')).toHaveTextContent('KSH 1,585');
    expect(screen.getByTestId('report-delivery-fees')).toHaveTextContent(
      'Products KSH 1,285 · Delivery fees KSH 300',
    );
    const url = new URL((fetchMock.mock.calls[0]![0] as Request).url);
    expect(url.pathname).toBe('/api/sales-summary/report');
  });

  it('shows the booking money received apart from the sales', async () => {
    answer({ orders: 0, amount: 0 });
    renderWithProviders(<ReportsRoute />);
    expect(await screen.findByTestId('report-money-received')).toHaveTextContent('KSH 19,500');
    expect(screen.getByTestId('report-money-received-note')).toHaveTextContent(
      'Deposits KSH 9,000 (2) · Balances KSH 10,500 (1); bookings, apart from the sales above',
    );
  });

  it('says so when nothing was refunded', async () => {
    answer({ orders: 0, amount: 0 });
    renderWithProviders(<ReportsRoute />);
    expect(await screen.findByTestId('report-refunds')).toHaveTextContent('KSH 0');
    expect(screen.getByTestId('report-refunds-note')).toHaveTextContent(
      'No paid order was cancelled in this range',
    );
  });
});
