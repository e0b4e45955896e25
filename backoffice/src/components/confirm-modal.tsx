import { Button, Group, Modal, Text } from '@mantine/core';
import { TIMINGS } from '@spc/shared-contracts';
import { useEffect, useRef, useState } from 'react';

/** The spec's confirmation question: 'are you sure you want to {action} this {item}?' */
export const confirmQuestion = (action: string, item: string) =>
  `are you sure you want to ${action} this ${item}?`;

interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  /** Runs on yes; its failure is reported by the query client's toasts. */
  onConfirm: () => Promise<unknown>;
  message: string;
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  closeAfterMs?: number;
  /** Red for what destroys or undoes (the default: delete, cancel); the plain colour otherwise. */
  destructive?: boolean;
}

/** Confirm modal with no/yes; it closes a moment after yes (2 s), whatever the outcome. */
export function ConfirmModal({
  opened,
  onClose,
  onConfirm,
  message,
  title = 'Please confirm',
  confirmLabel = 'yes',
  cancelLabel = 'no',
  closeAfterMs = TIMINGS.deleteModalCloseMs,
  destructive = true,
}: ConfirmModalProps) {
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const confirm = async () => {
    setBusy(true);
    const started = Date.now();
    await onConfirm().catch(() => undefined);
    timer.current = setTimeout(
      () => {
        setBusy(false);
        onClose();
      },
      Math.max(0, closeAfterMs - (Date.now() - started)),
    );
  };

  return (
    <Modal opened={opened} onClose={busy ? () => undefined : onClose} title={title} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button
          color={destructive ? 'red' : undefined}
          onClick={() => void confirm()}
          loading={busy}
        >
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
