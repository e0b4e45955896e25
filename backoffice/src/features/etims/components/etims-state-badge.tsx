import { Badge } from '@mantine/core';
import { ETIMS_STATE_LABELS, type EtimsDocumentState } from '@spc/shared-contracts';

const COLOURS: Record<EtimsDocumentState, string> = {
  queued: 'blue',
  sending: 'blue',
  signed: 'green',
  failed: 'red',
  pending: 'orange',
};

/**
 * A document's eTIMS state: red when KRA refused it, orange while a clerk must copy its signature.
 * Never narrower than its word (a table's column would otherwise cut "Signed" to "Si…").
 */
export function EtimsStateBadge({ state }: { state: EtimsDocumentState }) {
  return (
    <Badge
      color={COLOURS[state]}
      variant="light"
      tt="none"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {ETIMS_STATE_LABELS[state]}
    </Badge>
  );
}
