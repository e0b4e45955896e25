import { Button, FileButton, Group, Text } from '@mantine/core';
import {
  canActOnTranche,
  formatDateTime,
  SCAN_ACCEPT,
  SCAN_FIELD,
  scanDescription,
  scanFileProblem,
  SIGNED_NOTE_MESSAGES,
  SIGNED_NOTE_TEXTS,
  signedNoteFilename,
  trancheLabel,
  type Role,
} from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { downloadPdf } from '../../../lib/pdf';
import { showToast } from '../../../lib/query-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { trancheKeys, type Tranche } from '../api/tranches';
import { orderKeys } from '../api/get-orders';

/** `PUT /api/orders/{id}/tranches/{number}/signed-note`: the photo or scan, as multipart. */
async function uploadSignedNote(tranche: Tranche, file: File) {
  const form = new FormData();
  form.set(SCAN_FIELD, file);
  return unwrap(
    await api.PUT('/api/orders/{id}/tranches/{number}/signed-note', {
      params: { path: { id: tranche.orderId, number: tranche.number } },
      body: {} as never,
      bodySerializer: () => form,
    }),
  );
}

/**
 * The photo or scan of a tranche's signed delivery note (optional, once the load left): what is
 * attached, downloaded signed in, and a file button for the staff to attach or replace it.
 */
export function TrancheSignedNote({ tranche, role }: { tranche: Tranche; role: Role }) {
  const client = useQueryClient();
  const [downloading, setDownloading] = useState(false);
  const attach = useMutation({
    mutationFn: (file: File) => uploadSignedNote(tranche, file),
    meta: { errorMessage: 'The signed note could not be attached. Please try again.' },
    onSuccess: () => showToast('success', SIGNED_NOTE_MESSAGES.attached),
    onSettled: () =>
      Promise.all([orderKeys.all, trancheKeys.desk].map((key) => refreshQueries(client, key))),
  });
  const mayAttach = canActOnTranche('attachSignedNote', tranche.state, role);
  const note = tranche.signedNote;
  if (!note && !mayAttach) return null;
  const label = trancheLabel(tranche.number);
  const pick = (file: File | null) => {
    if (!file) return;
    const problem = scanFileProblem(file, SIGNED_NOTE_MESSAGES);
    if (problem) showToast('error', problem);
    else attach.mutate(file);
  };
  const download = async () => {
    if (!note) return;
    setDownloading(true);
    try {
      await downloadPdf(
        `/api/orders/${tranche.orderId}/tranches/${tranche.number}/signed-note`,
        signedNoteFilename(tranche.purchaseNumber, tranche.number, note.contentType),
      );
    } catch (e) {
      showToast('error', (e as Error).message);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Group gap="xs" mt="xs" role="group" aria-label={`${SIGNED_NOTE_TEXTS.title} ${label}`}>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {SIGNED_NOTE_TEXTS.title}:{' '}
        {note
          ? `${scanDescription(note)}, attached ${formatDateTime(note.uploadedAt)}`
          : attach.isPending
            ? SIGNED_NOTE_TEXTS.sending
            : SIGNED_NOTE_TEXTS.none.toLowerCase()}
      </Text>
      {note && (
        <Button variant="default" size="xs" loading={downloading} onClick={() => void download()}>
          {SIGNED_NOTE_TEXTS.download}
        </Button>
      )}
      {mayAttach && (
        <FileButton onChange={pick} accept={SCAN_ACCEPT} disabled={attach.isPending}>
          {(props) => (
            <Button {...props} variant="light" size="xs" loading={attach.isPending}>
              {note ? SIGNED_NOTE_TEXTS.replace : SIGNED_NOTE_TEXTS.attach}
            </Button>
          )}
        </FileButton>
      )}
    </Group>
  );
}
