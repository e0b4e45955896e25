import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  formatDate,
  LPO_SCAN_MESSAGES,
  LPO_SCAN_TEXTS,
  QUOTATION_LIMITS,
  quotationAcceptSchema,
  type QuotationAcceptForm,
  type QuotationShortLine,
  SCAN_ACCEPT,
  scanFileProblem,
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

/**
 * Staff accepting on the buyer's written word: the version, the LPO number and, optionally, the
 * scanned LPO (checked here, sent to the order once the acceptance made it).
 */
export function AcceptPanel({
  versions,
  pending,
  error,
  onAccept,
}: {
  versions: number[];
  pending?: boolean;
  error: unknown;
  onAccept: (body: { version: number; lpoNumber: string }, scan: File | null) => void;
}) {
  const [version, setVersion] = useState(String(versions[versions.length - 1] ?? ''));
  const [scan, setScan] = useState<File | null>(null);
  const [scanProblem, setScanProblem] = useState<string | null>(null);
  const form = useForm<QuotationAcceptForm>({
    resolver: zodResolver(quotationAcceptSchema),
    defaultValues: { lpoNumber: '' },
  });
  return (
    <form
      onSubmit={form.handleSubmit(({ lpoNumber }) => {
        const problem = scan ? scanFileProblem(scan, LPO_SCAN_MESSAGES) : null;
        setScanProblem(problem);
        if (!problem) onAccept({ version: Number(version), lpoNumber: lpoNumber.trim() }, scan);
      })}
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
        <FileInput
          label={LPO_SCAN_TEXTS.field}
          placeholder="Choose a PDF or a photo"
          accept={SCAN_ACCEPT}
          clearable
          value={scan}
          onChange={(file) => {
            setScan(file);
            setScanProblem(null);
          }}
          error={scanProblem}
          disabled={pending}
          w={{ base: '100%', xs: 416 }}
        />
        <Button type="submit" loading={pending} style={{ alignSelf: 'flex-start' }}>
          Accept
        </Button>
        {error ? <Refusal error={error} /> : null}
      </Stack>
    </form>
  );
}
