import type { SalesReport } from '../api/get-sales-report';
import { reportToCsv } from './report-csv';

describe('sales report CSV', () => {
  it('has one row per day, a total row and a refunds row, money in whole shillings', () => {
    const report = {
      success: true,
      message: 'Sales report',
      from: '2026-11-20',
      to: '2026-11-21',
      series: [
        { date: '2026-11-20', orders: 2, revenue: 1585 },
        { date: '2026-11-21', orders: 0, revenue: 0 },
      ],
      topProducts: [],
      totals: {
        orders: 2,
        revenue: 1585,
        averageOrderValue: 793,
        refunds: { orders: 1, amount: 1270 },
      },
      salesBreakdown: { productSales: 1285, deliveryFees: 300, series: [] },
      moneyReceived: { deposits: 0, depositCount: 0, balances: 0, balanceCount: 0 },
    } as SalesReport;
    expect(reportToCsv(report)).toBe(
      'date,orders,revenue_kes\n2026-11-20,2,1585\n2026-11-21,0,0\ntotal,2,1585\nrefunds,1,1270\n',
    );
  });
});
