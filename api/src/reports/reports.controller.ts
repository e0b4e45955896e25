import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/access.decorators';
import { ReportQueryDto, SalesReportDto, SalesSummaryDto } from './dto/report.dto';
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
  @ApiOkResponse({ type: SalesSummaryDto })
  async summary(): Promise<SalesSummaryDto> {
    return { success: true, message: 'Sales summary', ...(await this.reports.summary()) };
  }

  @Get('report')
  @ApiOperation({ summary: 'Orders and revenue per day over a range, the top products and totals' })
  @ApiOkResponse({ type: SalesReportDto })
  async report(@Query() query: ReportQueryDto): Promise<SalesReportDto> {
    return {
      success: true,
      message: 'Sales report',
      ...(await this.reports.report(query.from, query.to)),
    };
  }
}
