import { BarChart, LineChart } from '@mantine/charts';
import { Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { formatMoney, shopToday } from '@spc/shared-contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { useSalesReport, type SalesReport } from '../api/get-sales-report';
import { downloadCsv, reportToCsv } from '../components/report-csv';
import { calendarLabels } from '../../../components/calendar-labels';

const ISO = 'YYYY-MM-DD';

/**
 * Why sales can drop: a paid order cancelled with its money given back leaves Revenue and Orders
 * (and the all-time Total Sales), and its refund is counted here instead.
 */
export const refundNote = (orders: number) =>
  orders === 0
    ? 'No paid order was cancelled in this range'
    : `${orders} paid ${orders === 1 ? 'order' : 'orders'} cancelled and refunded; not counted in Revenue or Total Sales`;

/** Booking deposits and balances received in the range: not sales until a booking is paid. */
function moneyReceivedNote(m: SalesReport['moneyReceived']): string {
  return `Deposits ${formatMoney(m.deposits, 'KSH')} (${m.depositCount}) · Balances ${formatMoney(m.balances, 'KSH')} (${m.balanceCount}); bookings, apart from the sales above`;
}

/** /admin/reports, titled Sales: a date range, revenue and orders per day, top products, totals. */
export function ReportsRoute() {
  // The shop's days (Nairobi), as the API counts them, whatever the device's time zone.
  const [range, setRange] = useState<DatesRangeValue<string>>(() => [
    dayjs(shopToday()).subtract(29, 'day').format(ISO),
    shopToday(),
  ]);
  const [from, to] = range;
  const complete = Boolean(from && to);
  const query = useSalesReport(
    dayjs(from ?? undefined).format(ISO),
    dayjs(to ?? from ?? undefined).format(ISO),
  );
  const report = query.data;
  const series = (report?.series ?? []).map((d) => ({ ...d, day: dayjs(d.date).format('DD/MM') }));
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Sales</Title>
        <Group align="flex-end">
          <DatePickerInput
            {...calendarLabels}
            type="range"
            label="Date range"
            valueFormat="DD/MM/YYYY"
            value={range}
            onChange={setRange}
            maxDate={dayjs().format(ISO)}
            miw={260}
          />
          <Button
            variant="light"
            disabled={!report || !complete}
            onClick={() =>
              report && downloadCsv(`sales-${report.from}-to-${report.to}.csv`, reportToCsv(report))
            }
          >
            Export CSV
          </Button>
        </Group>
      </Group>
      <ListState isLoading={query.isPending} isError={query.isError} isEmpty={false} emptyText="" />
      {report && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Revenue
              </Text>
              <Text fw={700} size="xl" data-testid="report-revenue">
                {formatMoney(report.totals.revenue, 'KSH')}
              </Text>
              <Text size="xs" c="dimmed" data-testid="report-delivery-fees">
                Products {formatMoney(report.salesBreakdown.productSales, 'KSH')} · Delivery fees{' '}
                {formatMoney(report.salesBreakdown.deliveryFees, 'KSH')}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Orders
              </Text>
              <Text fw={700} size="xl">
                {report.totals.orders}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Average order value
              </Text>
              <Text fw={700} size="xl">
                {formatMoney(report.totals.averageOrderValue, 'KSH')}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Refunds
              </Text>
              <Text fw={700} size="xl" data-testid="report-refunds">
                {formatMoney(report.totals.refunds.amount, 'KSH')}
              </Text>
              <Text size="xs" c="dimmed" data-testid="report-refunds-note">
                {refundNote(report.totals.refunds.orders)}
              </Text>
            </Card>
            {/* Money taken on bookings is kept apart from the sales completed above. */}
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Booking money received
              </Text>
              <Text fw={700} size="xl" data-testid="report-money-received">
                {formatMoney(report.moneyReceived.deposits + report.moneyReceived.balances, 'KSH')}
              </Text>
              <Text size="xs" c="dimmed" data-testid="report-money-received-note">
                {moneyReceivedNote(report.moneyReceived)}
              </Text>
            </Card>
          </SimpleGrid>
          <Card withBorder>
            <Title order={4} mb="sm">
              Revenue per day
            </Title>
            <LineChart
              h={260}
              data={series}
              dataKey="day"
              series={[{ name: 'revenue', label: 'Revenue (KSH)', color: 'green.6' }]}
              valueFormatter={(v) => formatMoney(v, 'KSH')}
              curveType="linear"
              yAxisProps={{ width: 90 }}
            />
          </Card>
          <Card withBorder>
            <Title order={4} mb="sm">
              Orders per day
            </Title>
            <BarChart
              h={220}
              data={series}
              dataKey="day"
              series={[{ name: 'orders', label: 'Orders', color: 'blue.6' }]}
              yAxisProps={{ allowDecimals: false }}
            />
          </Card>
          <Card withBorder>
            <Title order={4} mb="sm">
              Top products
            </Title>
            {report.topProducts.length === 0 ? (
              <Text c="dimmed">No sales in this range.</Text>
            ) : (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Product</Table.Th>
                    <Table.Th>Quantity</Table.Th>
                    <Table.Th>Revenue</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.topProducts.map((p) => (
                    <Table.Tr key={`${p.productId}:${p.productName}`}>
                      <Table.Td>{p.productName}</Table.Td>
                      <Table.Td>{p.quantity}</Table.Td>
                      <Table.Td>{formatMoney(p.revenue, 'KSH')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        </>
      )}
    </Stack>
  );
}
