import {
  Alert,
  Button,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatMoney,
  TILL_ATTENTION_LABELS,
  TILL_MESSAGES,
  type TillSaleView,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState } from 'react';
import { useSettleSale } from '../api/sales';
import { TILL_PAY_TEXTS } from './till-payment';

type SettleMethod = 'cash' | 'mpesa-code';

/**
 * Settling a sale that needs attention (issue 47): what is unpaid, taken in cash (the change
 * shown) or by an M-Pesa code the buyer shows now, in the clerk's open session.
 */
export function SettleDialog({
  sale,
  sessionId,
  onClose,
}: {
  sale: TillSaleView;
  sessionId: string;
  onClose: () => void;
}) {
  const unpaid = sale.needsAttention?.unpaid ?? 0;
  const [method, setMethod] = useState<SettleMethod>('cash');
  const [given, setGiven] = useState<number | undefined>();
  const [code, setCode] = useState('');
  const settle = useSettleSale(sale.orderId);
  const problem =
    method === 'cash'
      ? (given ?? 0) < unpaid
        ? TILL_MESSAGES.cashShort(formatMoney(unpaid))
        : undefined
      : code.trim()
        ? undefined
        : TILL_PAY_TEXTS.codeRequired;
  const submit = () =>
    settle.mutate(
      {
        sessionId,
        payments: [
          method === 'cash'
            ? { method, amount: unpaid, given: given ?? unpaid }
            : { method, amount: unpaid, code: code.trim().toUpperCase() },
        ],
      },
      { onSuccess: onClose },
    );
  return (
    <Modal opened onClose={onClose} title={`Settle ${sale.purchaseNumber}`} centered>
      <Stack>
        {(sale.needsAttention?.reasons ?? []).map((r) => (
          <Text key={r} c="red">
            {TILL_ATTENTION_LABELS[r]}
            {sale.needsAttention?.code ? ` (${sale.needsAttention.code})` : ''}
          </Text>
        ))}
        <Text fz="lg">
          Unpaid: <strong>{formatMoney(unpaid)}</strong>
        </Text>
        <SegmentedControl
          aria-label="How the buyer pays what is unpaid"
          fullWidth
          value={method}
          onChange={(v) => setMethod(v as SettleMethod)}
          data={[
            { value: 'cash', label: 'Cash' },
            { value: 'mpesa-code', label: 'M-Pesa code' },
          ]}
        />
        {method === 'cash' ? (
          <>
            <NumberInput
              size="lg"
              label="Cash given"
              prefix="KES "
              thousandSeparator=","
              allowDecimal={false}
              allowNegative={false}
              hideControls
              inputMode="numeric"
              value={given ?? ''}
              onChange={(v) => setGiven(typeof v === 'number' ? v : undefined)}
            />
            <Text fw={700}>Change {formatMoney(Math.max((given ?? 0) - unpaid, 0))}</Text>
          </>
        ) : (
          <TextInput
            size="lg"
            label="M-Pesa code"
            description="From the message on the buyer’s phone, e.g. SGR4T5Y6U7"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            autoCapitalize="characters"
          />
        )}
        {problem && <Text c="red">{problem}</Text>}
        {settle.isError && (
          <Alert color="red" role="alert">
            {errorMessage(settle.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Alert>
        )}
        <Button size="lg" onClick={submit} disabled={!!problem} loading={settle.isPending}>
          Settle {formatMoney(unpaid)}
        </Button>
      </Stack>
    </Modal>
  );
}
