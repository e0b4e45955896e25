import { Badge } from '@mantine/core';
import { QUOTATION_STATUS_LABELS_FOR_SHOP, type QuotationStatus } from '@spc/shared-contracts';

const COLOURS: Record<QuotationStatus, string> = {
  requested: 'yellow',
  sent: 'blue',
  expired: 'orange',
  accepted: 'green',
  declined: 'gray',
  withdrawn: 'gray',
};

/** A quotation's status in the contract's words (the quote desk and an organisation's page). */
export function QuotationStatusBadge({ status }: { status: QuotationStatus }) {
  return (
    <Badge
      color={COLOURS[status]}
      variant="light"
      tt="none"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {QUOTATION_STATUS_LABELS_FOR_SHOP[status]}
    </Badge>
  );
}
