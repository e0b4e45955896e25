import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import {
  formatDateTime,
  LPO_SCAN_MESSAGES,
  LPO_SCAN_TEXTS,
  SCAN_ACCEPT,
  scanDescription,
  scanFileProblem,
  type ScanAbout,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { downloadLpoScan } from '../../../lib/lpo-scan';
import { showToast } from '../../../lib/query-client';
import { useAttachLpoScan } from '../api/attach-lpo-scan';

/**
 * The scanned LPO of an order from a quotation: what is attached (downloaded signed in), and a
 * file button to attach or replace it; the answer (or why not) as a notification.
 */
export function OrderLpoScan({
  orderId,
  lpoNumber,
  scan,
}: {
  orderId: string;
  lpoNumber: string;
  scan: ScanAbout | null;
}) {
  const attach = useAttachLpoScan(orderId);
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    if (!scan) return;
    setDownloading(true);
    try {
      await downloadLpoScan(orderId, lpoNumber, scan.contentType);
    } catch (e) {
      showToast('error', (e as Error).message);
    } finally {
      setDownloading(false);
    }
  };
  const pick = (file: File | null) => {
    if (!file) return;
    const problem = scanFileProblem(file, LPO_SCAN_MESSAGES);
    if (problem) showToast('error', problem);
    else attach.mutate(file);
  };
  return (
    <Stack gap={6} mt="xs" aria-label={LPO_SCAN_TEXTS.title} role="group">
      <Text size="sm">
        {LPO_SCAN_TEXTS.title}:{' '}
        {scan
          ? `${scanDescription(scan)}, attached ${formatDateTime(scan.uploadedAt)}`
          : attach.isPending
            ? LPO_SCAN_TEXTS.sending
            : 'none attached'}
      </Text>
      <Group gap="xs">
        {scan && (
          <Button variant="default" size="xs" loading={downloading} onClick={() => void download()}>
            {LPO_SCAN_TEXTS.download}
          </Button>
        )}
        <FileButton onChange={pick} accept={SCAN_ACCEPT} disabled={attach.isPending}>
          {(props) => (
            <Button {...props} variant="light" size="xs" loading={attach.isPending}>
              {scan ? LPO_SCAN_TEXTS.replace : LPO_SCAN_TEXTS.attach}
            </Button>
          )}
        </FileButton>
      </Group>
    </Stack>
  );
}
