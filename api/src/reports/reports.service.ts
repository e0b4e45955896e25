import { BadRequestException, Injectable } from '@nestjs/common';
import { lineItemName } from '@spc/shared-contracts';
import { OrderSales } from '../orders/order-sales';
import type { SalesReportDto, SalesSummaryDto } from './dto/report.dto';
import { addDays, mondayOf, shopDay, startOfShopDay } from './shop-time';

const MAX_REPORT_DAYS = 366;
const TOP_PRODUCTS = 10;

/** Sales from paid, not cancelled orders, counted on the day they were paid in the shop's time zone. */
@Injectable()
export class ReportsService {
  constructor(private readonly orders: OrderSales) {}

  async summary(now = new Date()): Promise<Omit<SalesSummaryDto, 'success' | 'message'>> {
    const today = shopDay(now);
    const weekStart = startOfShopDay(mondayOf(today));
    const dayStart = startOfShopDay(today);
    const tomorrow = startOfShopDay(addDays(today, 1));
    const [week, totalSales] = await Promise.all([
      this.orders.paidBetween(weekStart, tomorrow),
      this.orders.paidTotal(),
    ]);
    const sum = (rows: { totalAmount: number }[]) => rows.reduce((n, r) => n + r.totalAmount, 0);
    return {
      dailySales: sum(week.filter((o) => new Date(o.paidAt!) >= dayStart)),
      weeklySales: sum(week),
      totalSales,
    };
  }

  async report(from: string, to: string): Promise<Omit<SalesReportDto, 'success' | 'message'>> {
    if (from > to) throw new BadRequestException('from must be on or before to');
    const days: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      days.push(day);
      if (days.length > MAX_REPORT_DAYS)
        throw new BadRequestException(`A report covers at most ${MAX_REPORT_DAYS} days`);
    }
    const [orders, refunds] = await Promise.all([
      this.orders.paidBetween(startOfShopDay(from), startOfShopDay(addDays(to, 1))),
      this.orders.refundedBetween(startOfShopDay(from), startOfShopDay(addDays(to, 1))),
    ]);
    const series = new Map(days.map((date) => [date, { date, orders: 0, revenue: 0 }]));
    const split = new Map(days.map((date) => [date, { date, productSales: 0, deliveryFees: 0 }]));
    const products = new Map<
      string,
      { productId: string; productName: string; quantity: number; revenue: number }
    >();
    for (const order of orders) {
      const day = shopDay(new Date(order.paidAt!));
      const bucket = series.get(day);
      if (bucket) {
        bucket.orders += 1;
        bucket.revenue += order.totalAmount;
      }
      const part = split.get(day);
      if (part) {
        part.deliveryFees += order.shippingFee;
        part.productSales += order.totalAmount - order.shippingFee;
      }
      // One row per product and unit (quantity counts the unit); the unit is named unless single.
      for (const line of order.products) {
        const key = `${line.product._id}:${line.unit.name}`;
        const p = products.get(key) ?? {
          productId: line.product._id,
          productName: lineItemName({ productName: line.productName, unit: line.unit }),
          quantity: 0,
          revenue: 0,
        };
        p.quantity += line.quantity;
        p.revenue += line.lineTotal;
        products.set(key, p);
      }
    }
    const revenue = orders.reduce((n, o) => n + o.totalAmount, 0);
    const deliveryFees = orders.reduce((n, o) => n + o.shippingFee, 0);
    return {
      from,
      to,
      series: [...series.values()],
      topProducts: [...products.values()]
        .sort((a, b) => b.revenue - a.revenue || b.quantity - a.quantity)
        .slice(0, TOP_PRODUCTS),
      totals: {
        orders: orders.length,
        revenue,
        averageOrderValue: orders.length ? Math.round(revenue / orders.length) : 0,
        refunds: {
          orders: refunds.length,
          amount: refunds.reduce((n, r) => n + r.amount, 0),
        },
      },
      salesBreakdown: {
        productSales: revenue - deliveryFees,
        deliveryFees,
        series: [...split.values()],
      },
    };
  }
}
