import {
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { formatMoney } from '@spc/shared-contracts';
import { OFFLINE_TEXTS } from '../offline/offline-sync';
import {
  cashDue,
  changeDue,
  mpesaKindOf,
  PAY_MODE_LABELS,
  PAY_MODES,
  type MpesaKind,
  type PayState,
} from './till-payment';

const money = (
  label: string,
  value: number | undefined,
  onChange: (v?: number) => void,
  disabled?: boolean,
) => (
  <NumberInput
    size="lg"
    label={label}
    prefix="KES "
    thousandSeparator=","
    allowDecimal={false}
    allowNegative={false}
    hideControls
    inputMode="numeric"
    value={value ?? ''}
    onChange={(v) => onChange(typeof v === 'number' ? v : undefined)}
    disabled={disabled}
  />
);

/**
 * How the buyer pays: cash (the amount given, the change shown), an M-Pesa prompt to their phone,
 * the code of the M-Pesa payment they made, or a split of cash and M-Pesa.
 */
export function PaymentPanel({
  total,
  pay,
  onChange,
  disabled,
  withPrompt = true,
  offline = false,
}: {
  total: number;
  pay: PayState;
  onChange: (pay: PayState) => void;
  disabled?: boolean;
  /**
   * False where an M-Pesa prompt is not taken (collecting a booking): cash and codes only, and no
   * buyer's phone (the booking has it).
   */
  withPrompt?: boolean;
  /** Offline (issue 47): cash and codes only; the prompt's button says why it is off. */
  offline?: boolean;
}) {
  const modes = withPrompt ? PAY_MODES : PAY_MODES.filter((m) => m !== 'mpesa-express');
  const set = (patch: Partial<PayState>) => onChange({ ...pay, ...patch });
  const due = cashDue(pay, total);
  const kind = mpesaKindOf(pay);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2} spacing="xs" role="group" aria-label="How the buyer pays">
        {modes.map((m) => (
          <Button
            key={m}
            size="md"
            h={56}
            px="xs"
            styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
            variant={pay.mode === m ? 'filled' : 'default'}
            aria-pressed={pay.mode === m}
            onClick={() => set({ mode: m })}
            disabled={disabled || (offline && m === 'mpesa-express')}
          >
            {PAY_MODE_LABELS[m]}
          </Button>
        ))}
      </SimpleGrid>
      {offline && withPrompt && (
        <Text size="sm" c="dimmed" data-testid="prompt-offline">
          {OFFLINE_TEXTS.promptOffline}
        </Text>
      )}
      {pay.mode === 'split' &&
        money('Cash part', pay.cashPart, (cashPart) => set({ cashPart }), disabled)}
      {due > 0 && (
        <>
          {money('Cash given', pay.given, (given) => set({ given }), disabled)}
          <Group justify="space-between">
            <Text>Cash due {formatMoney(due)}</Text>
            <Text fw={800} fz="xl" data-testid="change">
              Change {formatMoney(changeDue(pay, total))}
            </Text>
          </Group>
        </>
      )}
      {pay.mode === 'split' && withPrompt && (
        <SegmentedControl
          aria-label="The M-Pesa part"
          fullWidth
          data={[
            {
              value: 'mpesa-express',
              label: PAY_MODE_LABELS['mpesa-express'],
              disabled: offline,
            },
            { value: 'mpesa-code', label: PAY_MODE_LABELS['mpesa-code'] },
          ]}
          value={pay.mpesaKind}
          onChange={(v) => set({ mpesaKind: v as MpesaKind })}
          disabled={disabled}
        />
      )}
      {kind && <Text>M-Pesa {formatMoney(Math.max(total - due, 0))}</Text>}
      {kind === 'mpesa-code' && (
        <TextInput
          size="lg"
          label="M-Pesa code"
          description="From the message on the buyer’s phone, e.g. SGR4T5Y6U7"
          value={pay.code}
          onChange={(e) => set({ code: e.currentTarget.value })}
          autoCapitalize="characters"
          disabled={disabled}
        />
      )}
      {withPrompt && (
        <TextInput
          size="lg"
          type="tel"
          inputMode="tel"
          label={
            kind === 'mpesa-express'
              ? 'Buyer’s phone (the M-Pesa prompt goes to it)'
              : 'Buyer’s phone (optional)'
          }
          description="For the SMS receipt"
          value={pay.phone}
          onChange={(e) => set({ phone: e.currentTarget.value })}
          disabled={disabled}
        />
      )}
    </Stack>
  );
}
