import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  ETIMS_KIND_LABELS,
  ETIMS_TEXTS,
  formatDateTime,
  formatKes,
  type components,
} from '@spc/shared-contracts';

type EtimsDocument = components['schemas']['EtimsDocumentDto'];

function Fact({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed" size="sm">
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}

function Document({ d }: { d: EtimsDocument }) {
  const signed = d.state === 'signed';
  return (
    <Stack gap={4} data-testid="etims-document">
      <Group justify="space-between" gap="xs">
        <Text fw={600}>
          {ETIMS_KIND_LABELS[d.kind]} {d.trdInvcNo}
        </Text>
        <Badge variant="light" color={signed ? 'green' : 'yellow'}>
          {signed ? 'Signed' : ETIMS_TEXTS.pending}
        </Badge>
      </Group>
      {signed ? (
        <>
          <Fact label={ETIMS_TEXTS.cuInvoiceNo} value={d.cuInvoiceNo} />
          <Fact label={ETIMS_TEXTS.signature} value={d.signature} />
          <Fact label={ETIMS_TEXTS.internalData} value={d.internalData} />
          <Fact label={ETIMS_TEXTS.signedAt} value={d.signedAt && formatDateTime(d.signedAt)} />
          <Fact label={ETIMS_TEXTS.mrcNo} value={d.mrcNo} />
          {d.qrUrl && (
            <Anchor href={d.qrUrl} target="_blank" rel="noopener noreferrer" size="sm">
              {ETIMS_TEXTS.check} (the QR code&apos;s link)
            </Anchor>
          )}
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {ETIMS_TEXTS.pendingWhy}
        </Text>
      )}
      <Table.ScrollContainer minWidth={320}>
        <Table fz="xs" verticalSpacing={2} aria-label={`${ETIMS_TEXTS.taxHeading} ${d.trdInvcNo}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{ETIMS_TEXTS.taxType}</Table.Th>
              <Table.Th ta="right">{ETIMS_TEXTS.taxAmount}</Table.Th>
              <Table.Th ta="right">{ETIMS_TEXTS.taxable}</Table.Th>
              <Table.Th ta="right">{ETIMS_TEXTS.tax}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.taxes.map((t) => (
              <Table.Tr key={t.taxType}>
                <Table.Td>
                  {t.taxType} · {t.label}
                </Table.Td>
                <Table.Td ta="right">{formatKes(t.amount, 'KSH')}</Table.Td>
                <Table.Td ta="right">{formatKes(t.taxable, 'KSH')}</Table.Td>
                <Table.Td ta="right">{formatKes(t.tax, 'KSH')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/**
 * An order's or an invoice's documents as KRA eTIMS signed them: the CU invoice number, signature, internal
 * data, time and KRA's check link (the QR code's), or "eTIMS pending"; and each one's tax by type.
 * Shown once eTIMS is on and something of it was queued (nothing with eTIMS off).
 */
export function EtimsDocuments({ documents }: { documents: EtimsDocument[] }) {
  if (!documents.length) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        {ETIMS_TEXTS.heading}
      </Title>
      <Stack gap="md">
        {documents.map((d) => (
          <Document key={`${d.kind}-${d.trdInvcNo}`} d={d} />
        ))}
      </Stack>
    </Card>
  );
}
