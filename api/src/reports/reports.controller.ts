import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../common/answer';
import { Auth } from '../common/access.decorators';
import {
  ReportQueryDto,
  SalesReportData,
  SalesReportDto,
  SalesSummaryData,
  SalesSummaryDto,
} from './dto/report.dto';
import { ReportsService } from './reports.service';

@ApiTags('reports')
@Controller('sales-summary')
@Auth('admin')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @ApiOperation({
    summary: 'Daily, weekly (from Monday) and total sales in KES, in Africa/Nairobi time',
  })
  @Answer('Sales summary', SalesSummaryDto)
  async summary(): Promise<SalesSummaryData> {
    return this.reports.summary();
  }

  @Get('report')
  @ApiOperation({ summary: 'Orders and revenue per day over a range, the top products and totals' })
  @Answer('Sales report', SalesReportDto)
  async report(@Query() query: ReportQueryDto): Promise<SalesReportData> {
    return this.reports.report(query.from, query.to);
  }
}
