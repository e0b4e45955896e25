import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, List, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import {
  formatDate,
  QUOTATION_LIMITS,
  quotationAcceptSchema,
  type QuotationAcceptForm,
  type QuotationShortLine,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { shortLines } from '../api/accept-quotation';

const n = (x: number) => x.toLocaleString('en-US');

function ShortLines({ lines }: { lines: QuotationShortLine[] }) {
  return (
    <List size="sm" spacing="xs" aria-label="Short lines">
      {lines.map((l, i) => (
        <List.Item key={i} style={{ overflowWrap: 'anywhere' }}>
          {l.productName}: {n(l.seedlings)} seedlings asked from{' '}
          {l.source.kind === 'stock' ? 'ready stock' : 'its batch'}, {n(l.available)} left.
          {l.batches.length > 0 ? (
            <>
              {' '}
              Batches that could grow them:{' '}
              {l.batches
                .map((b) => `ready ${formatDate(b.readyOn)} (${n(b.available)} left)`)
                .join('; ')}
              .
            </>
          ) : (
            ' No growing batch has seedlings to offer.'
          )}
        </List.Item>
      ))}
    </List>
  );
}

/** What a refusal of the acceptance says: the short lines, or the API's message (credit limit…). */
function Refusal({ error }: { error: unknown }) {
  const lines = shortLines(error);
  return (
    <Alert color="red" role="alert" title={lines ? 'Not enough stock or batches' : 'Not accepted'}>
      <Text size="sm">{errorMessage(error, 'The quotation could not be accepted')}</Text>
      {lines && <ShortLines lines={lines} />}
    </Alert>
  );
}

/** Staff accepting on the buyer's written word: the version and the LPO number. */
export function AcceptPanel({
  versions,
  pending,
  error,
  onAccept,
}: {
  versions: number[];
  pending?: boolean;
  error: unknown;
  onAccept: (body: { version: number; lpoNumber: string }) => void;
}) {
  const [version, setVersion] = useState(String(versions[versions.length - 1] ?? ''));
  const form = useForm<QuotationAcceptForm>({
    resolver: zodResolver(quotationAcceptSchema),
    defaultValues: { lpoNumber: '' },
  });
  return (
    <form
      onSubmit={form.handleSubmit(({ lpoNumber }) =>
        onAccept({ version: Number(version), lpoNumber: lpoNumber.trim() }),
      )}
      noValidate
      aria-label="Accept on the buyer's word"
    >
      <Stack gap="xs">
        <Group align="flex-start">
          <NativeSelect
            label="Version"
            data={versions.map((v) => ({ value: String(v), label: `Version ${v}` }))}
            value={version}
            onChange={(e) => setVersion(e.currentTarget.value)}
            disabled={pending}
            w={{ base: '100%', xs: 160 }}
          />
          <TextInput
            label="LPO number"
            maxLength={QUOTATION_LIMITS.lpoNumber}
            {...form.register('lpoNumber')}
            error={form.formState.errors.lpoNumber?.message}
            disabled={pending}
            w={{ base: '100%', xs: 240 }}
          />
        </Group>
        <Button type="submit" loading={pending} style={{ alignSelf: 'flex-start' }}>
          Accept
        </Button>
        {error ? <Refusal error={error} /> : null}
      </Stack>
    </form>
  );
}
