import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, Matches } from 'class-validator';
import { Envelope } from '../../common/answer';
import { IsCalendarDay } from '../../common/calendar-day';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class BalancesDueDto {
  @ApiProperty() count!: number;
  @ApiProperty({ description: 'KES still due on them' }) amount!: number;
}

export class OverdueInvoicesDto {
  @ApiProperty({ description: 'Open invoices past their due date (Africa/Nairobi)' })
  count!: number;
  @ApiProperty({ description: 'KES they still owe' }) amount!: number;
}

export class SalesSummaryData {
  @ApiProperty({ description: 'KES paid today (Africa/Nairobi)' }) dailySales!: number;
  @ApiProperty({ description: 'KES paid since Monday 00:00 (Africa/Nairobi)' })
  weeklySales!: number;
  @ApiProperty({ description: 'KES paid, all time' }) totalSales!: number;
  @ApiProperty({
    type: BalancesDueDto,
    description:
      'Bookings whose balance is due within the next seven days (Africa/Nairobi) or overdue',
  })
  balancesDueThisWeek!: BalancesDueDto;
  @ApiProperty({
    description:
      'Batches, growing or ready, whose ready date falls in this week (Monday to Sunday)',
  })
  batchesReadyThisWeek!: number;
  @ApiProperty({
    type: OverdueInvoicesDto,
    description: 'Invoices on account still owing whose due date is before today (Africa/Nairobi)',
  })
  overdueInvoices!: OverdueInvoicesDto;
}

export class SalesSummaryDto extends Envelope(SalesSummaryData) {}

export class ReportQueryDto {
  @ApiProperty({ example: '2026-11-01', description: 'First day (Africa/Nairobi), inclusive' })
  @IsNotEmpty({ message: 'from is required (YYYY-MM-DD)' })
  @Matches(DAY, { message: 'from must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'from must be a real day between 2000-01-01 and 2099-12-31' })
  from!: string;

  @ApiProperty({ example: '2026-11-30', description: 'Last day (Africa/Nairobi), inclusive' })
  @IsNotEmpty({ message: 'to is required (YYYY-MM-DD)' })
  @Matches(DAY, { message: 'to must be a date as YYYY-MM-DD' })
  @IsCalendarDay({ message: 'to must be a real day between 2000-01-01 and 2099-12-31' })
  to!: string;
}

export class DailySalesDto {
  @ApiProperty({ example: '2026-11-22' }) date!: string;
  @ApiProperty() orders!: number;
  @ApiProperty({ description: 'KES' }) revenue!: number;
}

export class TopProductDto {
  @ApiProperty() productId!: string;
  @ApiProperty() productName!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty({ description: 'KES' }) revenue!: number;
}

export class RefundTotalsDto {
  @ApiProperty({ description: 'Paid orders cancelled with a refund recorded in the period' })
  orders!: number;
  @ApiProperty({ description: 'KES given back' }) amount!: number;
}

export class ReportTotalsDto {
  @ApiProperty() orders!: number;
  @ApiProperty() revenue!: number;
  @ApiProperty({ description: 'KES, rounded' }) averageOrderValue!: number;
  @ApiProperty({
    type: RefundTotalsDto,
    description:
      'Refunds recorded in the period (their orders are cancelled, so they are not in orders or revenue)',
  })
  refunds!: RefundTotalsDto;
}

export class DailyBreakdownDto {
  @ApiProperty({ example: '2026-11-22' }) date!: string;
  @ApiProperty({ description: "KES of that day's revenue for the products" }) productSales!: number;
  @ApiProperty({ description: "KES of that day's revenue charged for delivery" })
  deliveryFees!: number;
}

/** Revenue split into what the products sold for and what delivery was charged (revenue = both). */
export class SalesBreakdownDto {
  @ApiProperty({ description: 'KES of revenue for the products' }) productSales!: number;
  @ApiProperty({ description: 'KES of revenue charged for delivery' }) deliveryFees!: number;
  @ApiProperty({ type: [DailyBreakdownDto], description: 'The same split per day of `series`' })
  series!: DailyBreakdownDto[];
}

/**
 * Money that came in for bookings in the period, apart from sales completed: deposits (the
 * booking is not a sale yet) and balances (the sale completes with the balance and counts in
 * `revenue` then, for its whole total).
 */
export class MoneyReceivedDto {
  @ApiProperty({ description: 'KES of booking deposits received' }) deposits!: number;
  @ApiProperty({ description: 'How many deposits' }) depositCount!: number;
  @ApiProperty({ description: 'KES of booking balances received' }) balances!: number;
  @ApiProperty({ description: 'How many balances' }) balanceCount!: number;
}

export class SalesReportData {
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ type: [DailySalesDto] }) series!: DailySalesDto[];
  @ApiProperty({ type: [TopProductDto] }) topProducts!: TopProductDto[];
  @ApiProperty({ type: ReportTotalsDto }) totals!: ReportTotalsDto;
  @ApiProperty({ type: SalesBreakdownDto }) salesBreakdown!: SalesBreakdownDto;
  @ApiProperty({ type: MoneyReceivedDto }) moneyReceived!: MoneyReceivedDto;
}

export class SalesReportDto extends Envelope(SalesReportData) {}
