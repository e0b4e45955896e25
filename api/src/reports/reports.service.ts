import { BadRequestException, Injectable } from '@nestjs/common';
import { BatchesService } from '../batches/batches.service';
import { InvoiceStatements } from '../invoices/invoice-statements';
import { OrderSales } from '../orders/order-sales';
import type { SalesReportDto, SalesSummaryDto } from './dto/report.dto';
import { SalesRollup } from './sales-rollup';
import { addDays, balancesDueBy, mondayOf, shopDay, startOfShopDay } from '../common/shop-clock';

const MAX_REPORT_DAYS = 366;
const TOP_PRODUCTS = 10;

/** Sales from paid, not cancelled orders, counted on the day they were paid in the shop's time zone. */
@Injectable()
export class ReportsService {
  constructor(
    private readonly orders: OrderSales,
    private readonly rollup: SalesRollup,
    private readonly batches: BatchesService,
    private readonly invoices: InvoiceStatements,
  ) {}

  async summary(now = new Date()): Promise<Omit<SalesSummaryDto, 'success' | 'message'>> {
    const today = shopDay(now);
    const sunday = addDays(mondayOf(today), 6);
    // The week's days from the rollup (its orders paid each day), not the week's orders.
    const [week, totalSales, balancesDueThisWeek, batchesReadyThisWeek, overdueInvoices] =
      await Promise.all([
        this.rollup.daysBetween(mondayOf(today), today),
        this.rollup.total(),
        this.orders.balancesDueBy(balancesDueBy(now)),
        this.batchesReadyBetween(mondayOf(today), sunday),
        this.invoices.overdueTotals(now),
      ]);
    return {
      dailySales: week.find((d) => d.day === today)?.revenue ?? 0,
      weeklySales: week.reduce((n, d) => n + d.revenue, 0),
      totalSales,
      balancesDueThisWeek,
      batchesReadyThisWeek,
      overdueInvoices,
    };
  }

  /** Batches (growing or ready, not failed) whose ready day falls in [from, to]. */
  private async batchesReadyBetween(from: string, to: string): Promise<number> {
    const { items } = await this.batches.list({ readyFrom: from, readyTo: to }, 1, 100);
    return items.filter((b) => b.status !== 'Failed').length;
  }

  async report(from: string, to: string): Promise<Omit<SalesReportDto, 'success' | 'message'>> {
    if (from > to) throw new BadRequestException('from must be on or before to');
    const days: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      days.push(day);
      if (days.length > MAX_REPORT_DAYS)
        throw new BadRequestException(`A report covers at most ${MAX_REPORT_DAYS} days`);
    }
    // Days from the rollup (sales-rollup.ts): a year is 365 small rows and twelve months' products,
    // not a year of orders.
    const [{ days: rows, products: productRows }, refunds] = await Promise.all([
      this.rollup.between(from, to),
      this.orders.refundTotalsBetween(startOfShopDay(from), startOfShopDay(addDays(to, 1))),
    ]);
    const moneyReceived = { deposits: 0, depositCount: 0, balances: 0, balanceCount: 0 };
    const series = new Map(days.map((date) => [date, { date, orders: 0, revenue: 0 }]));
    const split = new Map(days.map((date) => [date, { date, productSales: 0, deliveryFees: 0 }]));
    const products = new Map<
      string,
      { productId: string; productName: string; quantity: number; revenue: number }
    >();
    let count = 0;
    let revenue = 0;
    let deliveryFees = 0;
    for (const row of rows) {
      const bucket = series.get(row._id);
      const part = split.get(row._id);
      if (!bucket || !part) continue;
      bucket.orders += row.orders;
      bucket.revenue += row.revenue;
      part.deliveryFees += row.deliveryFees;
      part.productSales += row.revenue - row.deliveryFees;
      count += row.orders;
      revenue += row.revenue;
      deliveryFees += row.deliveryFees;
      // Rows of days with bookings' money only have no orders; rows an older build wrote, none.
      moneyReceived.deposits += row.deposits ?? 0;
      moneyReceived.depositCount += row.depositCount ?? 0;
      moneyReceived.balances += row.balances ?? 0;
      moneyReceived.balanceCount += row.balanceCount ?? 0;
    }
    for (const line of productRows) {
      // A row per product and unit (rows written before units count as single seedlings).
      const key = `${line.productId}:${line.unitName ?? ''}`;
      const p = products.get(key) ?? {
        productId: line.productId,
        productName: line.productName,
        quantity: 0,
        revenue: 0,
      };
      p.quantity += line.quantity;
      p.revenue += line.revenue;
      products.set(key, p);
    }
    return {
      from,
      to,
      series: [...series.values()],
      topProducts: [...products.values()]
        .sort((a, b) => b.revenue - a.revenue || b.quantity - a.quantity)
        .slice(0, TOP_PRODUCTS),
      totals: {
        orders: count,
        revenue,
        averageOrderValue: count ? Math.round(revenue / count) : 0,
        refunds,
      },
      salesBreakdown: {
        productSales: revenue - deliveryFees,
        deliveryFees,
        series: [...split.values()],
      },
      moneyReceived,
    };
  }
}
