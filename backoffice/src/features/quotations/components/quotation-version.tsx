import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  type QuotationDelivery,
  type QuotationLineView,
  type QuotationVersionView,
} from '@spc/shared-contracts';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { downloadPdf } from '../../../lib/pdf';
import { showToast } from '../../../lib/query-client';

const source = (l: QuotationLineView) =>
  l.source.kind === 'stock' ? 'Ready stock' : `Batch, ready ${formatDate(l.readyDate)}`;

export const deliveryText = (d: QuotationDelivery | null) =>
  d
    ? `${d.siteName}, ${d.streetAddress}, ${d.subCounty ? `${d.subCounty}, ` : ''}${d.county} · ${formatDate(d.date)}`
    : 'No delivery named';

const quantity = (l: QuotationLineView) =>
  `${l.quantity.toLocaleString('en-US')} (${(l.quantity * l.seedlings).toLocaleString('en-US')} seedlings)`;

/** On a phone each line is a few wrapped lines of text: nothing scrolls sideways. */
function LineList({ version }: { version: QuotationVersionView }) {
  return (
    <Stack gap={4} component="ul" aria-label={`Lines of version ${version.version}`} p={0} m={0}>
      {version.lines.map((l, i) => (
        <Text
          key={i}
          component="li"
          size="sm"
          style={{ listStyle: 'none', overflowWrap: 'anywhere' }}
        >
          <b>
            {l.productName} · {l.unitName}
          </b>
          : {quantity(l)}, {source(l)}, {formatMoney(l.unitPrice)} each
          {l.unitPrice !== l.shopUnitPrice ? ` (shop ${formatMoney(l.shopUnitPrice)})` : ''} ={' '}
          <b>{formatMoney(l.lineTotal)}</b>
        </Text>
      ))}
    </Stack>
  );
}

/** A version's lines, delivery, fee and totals (the draft's too). */
export function VersionLines({ version }: { version: QuotationVersionView }) {
  const wide = useMediaQuery('(min-width: 62em)', true);
  return (
    <Stack gap="xs">
      {wide ? (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label={`Lines of version ${version.version}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Product</Table.Th>
                <Table.Th>Quantity</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Unit price</Table.Th>
                <Table.Th>Line total</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {version.lines.map((l, i) => (
                <Table.Tr key={i}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {l.productName} · {l.unitName}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{quantity(l)}</Table.Td>
                  <Table.Td>{source(l)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(l.unitPrice)}
                    {l.unitPrice !== l.shopUnitPrice && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        (shop {formatMoney(l.shopUnitPrice)})
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMoney(l.lineTotal)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <LineList version={version} />
      )}
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Delivery: {deliveryText(version.delivery)} · fee {formatMoney(version.deliveryFee)}
      </Text>
      <Text size="sm">
        Subtotal {formatMoney(version.subtotal)} · <b>Total {formatMoney(version.total)}</b> · valid
        until {formatDate(version.validUntil)}
      </Text>
      {version.note && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {version.note}
        </Text>
      )}
    </Stack>
  );
}

/** A version sent: its lines and totals, who sent it when, and its PDF. */
export function SentVersion({
  quotationId,
  number,
  version,
}: {
  quotationId: string;
  number: string;
  version: QuotationVersionView;
}) {
  const [fetching, setFetching] = useState(false);
  const pdf = () => {
    setFetching(true);
    downloadPdf(
      `/api/quotations/${quotationId}/versions/${version.version}/pdf`,
      `${number}-v${version.version}.pdf`,
    )
      .catch((e: Error) => showToast('error', e.message))
      .finally(() => setFetching(false));
  };
  return (
    <Card withBorder component="section" aria-label={`Version ${version.version}`}>
      <Group justify="space-between" mb="xs">
        <Title order={4} size="h5">
          Version {version.version}
          <Text span size="sm" c="dimmed" fw={400}>
            {' '}
            sent {formatDateTime(version.sentAt)}
            {version.sentBy ? ` by ${version.sentBy}` : ''}
          </Text>
        </Title>
        <Button size="xs" variant="default" onClick={pdf} loading={fetching}>
          PDF of version {version.version}
        </Button>
      </Group>
      <VersionLines version={version} />
    </Card>
  );
}
