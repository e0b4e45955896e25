import { Badge } from '@mantine/core';
import { ORGANISATION_STATUS_LABELS, type OrganisationStatus } from '@spc/shared-contracts';

const COLOURS: Record<OrganisationStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  suspended: 'orange',
  declined: 'gray',
};

export function OrganisationStatusBadge({ status }: { status: OrganisationStatus }) {
  return (
    <Badge
      color={COLOURS[status]}
      variant="light"
      tt="none"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {ORGANISATION_STATUS_LABELS[status]}
    </Badge>
  );
}
