import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ORDER_DOCUMENT_TEXTS, type OrderDocument, type Role } from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { downloadPdf } from '../../../lib/pdf';
import type { OrderDetail } from '../api/get-order-detail';

const LABELS: Record<OrderDocument, { print: string; pdf: string }> = {
  receipt: { print: 'Print receipt', pdf: ORDER_DOCUMENT_TEXTS.downloadReceipt },
  'delivery-note': { print: 'Print delivery note', pdf: ORDER_DOCUMENT_TEXTS.downloadDeliveryNote },
};

/** Print pages and PDFs of the order's receipt and delivery note; unavailable ones say why. */
export function OrderDocuments({ detail, role }: { detail: OrderDetail; role: Role }) {
  const [busy, setBusy] = useState<OrderDocument | null>(null);
  const { order, documents } = detail;
  const download = async (document: OrderDocument) => {
    setBusy(document);
    try {
      await downloadPdf(
        `/api/orders/${order._id}/${document}.pdf`,
        `${document}-${order.purchaseNumber}.pdf`,
      );
    } catch (e) {
      notifications.show({ color: 'red', message: (e as Error).message });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="sm">
      {(['receipt', 'delivery-note'] as const).map((document) => {
        const available = documents[document === 'receipt' ? 'receipt' : 'deliveryNote'];
        return (
          <Stack key={document} gap={4}>
            <Group gap="xs">
              <Button
                component={Link}
                to={paths.orderDocument(role, order._id, document)}
                variant="light"
                disabled={!available.available}
                data-disabled={!available.available || undefined}
                onClick={(e) => !available.available && e.preventDefault()}
              >
                {LABELS[document].print}
              </Button>
              <Button
                variant="default"
                disabled={!available.available}
                loading={busy === document}
                onClick={() => void download(document)}
              >
                {LABELS[document].pdf}
              </Button>
            </Group>
            {!available.available && (
              <Text size="sm" c="dimmed">
                {available.reason}
              </Text>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
