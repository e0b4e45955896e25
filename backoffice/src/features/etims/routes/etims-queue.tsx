import { Alert, Anchor, Button, Card, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  ETIMS_LIST_STATES,
  ETIMS_OFFICE_MESSAGES as M,
  formatDateTime,
  type EtimsDocumentView,
  type EtimsListState,
} from '@spc/shared-contracts';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useEtimsDocuments } from '../api/get-etims-documents';
import { useResendEtimsDocument } from '../api/resend-etims-document';
import { EtimsFormModal, ResendForm, SignatureForm } from '../components/etims-forms';
import { EtimsStateBadge } from '../components/etims-state-badge';

type Tab = 'waiting' | EtimsListState;
const TABS: Tab[] = ['waiting', ...ETIMS_LIST_STATES];

const TAB_LABELS: Record<Tab, string> = {
  waiting: 'Not signed yet',
  failed: 'Failed',
  pending: 'Pending',
  queued: 'Queued',
  signed: 'Signed',
};

const EMPTY: Record<Tab, string> = {
  waiting: M.empty,
  failed: 'KRA has refused nothing',
  pending: 'No document waits for a signature from KRA’s portal',
  queued: 'Nothing is on its way to KRA',
  signed: 'Nothing signed yet',
};

const nowrap = { whiteSpace: 'nowrap' } as const;
const kes = (n: number) =>
  `KES ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const isTab = (value: string | null): value is Tab => TABS.includes(value as Tab);

/** What KRA answered last, or what the queue knows (not answered yet, retried at…). */
function KraAnswer({ d }: { d: EtimsDocumentView }) {
  if (d.state === 'signed' && d.signature)
    return (
      <Stack gap={2}>
        <Text size="sm" ff="monospace">
          {d.signature.cuInvoiceNumber}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {d.signature.rcptSign}
          {d.signature.enteredBy ? ` · copied by ${d.signature.enteredBy}` : ''}
        </Text>
        <Anchor href={d.signature.qrUrl} target="_blank" rel="noreferrer" size="xs">
          Check on KRA’s site
        </Anchor>
      </Stack>
    );
  if (d.waitsFor)
    return (
      <Text size="sm" c="dimmed">
        Waits for its sale {d.waitsFor} to be signed: sent by itself then
      </Text>
    );
  if (!d.lastCode && !d.lastMessage)
    return (
      <Text size="sm" c="dimmed">
        Not sent yet
      </Text>
    );
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {d.lastCode && <b>{d.lastCode} </b>}
      {d.lastMessage}
      {d.state === 'queued' && d.nextTryAt && (
        <Text span size="xs" c="dimmed">
          {' '}
          (tried again {formatDateTime(d.nextTryAt)})
        </Text>
      )}
    </Text>
  );
}

type Actions = (d: EtimsDocumentView) => ReactNode;

/** On a computer: one row per document. */
function QueueTable({ rows, actions }: { rows: EtimsDocumentView[]; actions: Actions }) {
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped verticalSpacing="xs" fz="sm" aria-label="eTIMS documents">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Document</Table.Th>
            <Table.Th>eTIMS no.</Table.Th>
            <Table.Th>Tax point</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th>Buyer's PIN</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>KRA</Table.Th>
            <Table.Th ta="right">Attempts</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((d) => (
            <Table.Tr key={d.source}>
              <Table.Td style={nowrap}>
                <Text size="sm" ff="monospace">
                  {d.trdInvcNo}
                </Text>
                <Text size="xs" c="dimmed">
                  {d.kind === 'credit-note' ? 'Credit note' : 'Sale'}
                </Text>
              </Table.Td>
              <Table.Td>{d.invcNo}</Table.Td>
              <Table.Td style={nowrap}>{formatDateTime(d.at)}</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {kes(d.total)}
              </Table.Td>
              <Table.Td ff="monospace">{d.buyer?.pin ?? '—'}</Table.Td>
              <Table.Td>
                <EtimsStateBadge state={d.state} />
              </Table.Td>
              <Table.Td style={{ minWidth: 240 }}>
                <KraAnswer d={d} />
              </Table.Td>
              <Table.Td ta="right">{d.attempts}</Table.Td>
              <Table.Td>{actions(d)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each document is a card: its number, state, KRA's answer and buttons, nothing sideways. */
function QueueCards({ rows, actions }: { rows: EtimsDocumentView[]; actions: Actions }) {
  return (
    <Stack gap="xs" aria-label="eTIMS documents">
      {rows.map((d) => {
        const label = `${d.kind === 'credit-note' ? 'Credit note' : 'Sale'} ${d.trdInvcNo}`;
        return (
          <Card key={d.source} withBorder padding="sm" component="article" aria-label={label}>
            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
              <Text size="sm" fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {label}
              </Text>
              <EtimsStateBadge state={d.state} />
            </Group>
            <Text size="sm" c="dimmed">
              eTIMS no. {d.invcNo} · {formatDateTime(d.at)}
            </Text>
            <Text size="sm">{kes(d.total)}</Text>
            {d.buyer?.pin && (
              <Text size="sm">
                Buyer&apos;s PIN <span style={{ fontFamily: 'monospace' }}>{d.buyer.pin}</span>
              </Text>
            )}
            <KraAnswer d={d} />
            <Text size="xs" c="dimmed">
              Attempts: {d.attempts}
            </Text>
            <Group mt={4}>{actions(d)}</Group>
          </Card>
        );
      })}
    </Stack>
  );
}

/** A failed document: resend, or fix its buyer; a pending one: resend, or enter its signature. */
function DocumentActions({
  d,
  sending,
  busy,
  onResend,
  onForm,
}: {
  d: EtimsDocumentView;
  sending: boolean;
  busy: boolean;
  onResend: () => void;
  onForm: (kind: 'resend' | 'signature') => void;
}) {
  if (d.state !== 'failed' && d.state !== 'pending') return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        loading={sending}
        disabled={busy}
        onClick={onResend}
        aria-label={`Resend ${d.trdInvcNo}`}
      >
        Resend
      </Button>
      {d.state === 'failed' && (
        <Button size="xs" variant="default" disabled={busy} onClick={() => onForm('resend')}>
          Fix buyer and resend
        </Button>
      )}
      {d.state === 'pending' && (
        <Button size="xs" variant="default" disabled={busy} onClick={() => onForm('signature')}>
          Enter signature
        </Button>
      )}
    </Group>
  );
}

/**
 * /manage/etims: the documents KRA has not signed (issue 45), with KRA's words. A failed one is
 * resent as it is or with the buyer's PIN fixed; a pending one (KRA had its number and gave no
 * signature) takes the signature a clerk copies from KRA's portal. `?state=` is kept in the address.
 */
export function EtimsQueueRoute() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('state');
  const tab: Tab = isTab(raw) ? raw : 'waiting';
  const [page, setPage] = useState(1);
  const query = useEtimsDocuments({ state: tab === 'waiting' ? undefined : tab, page });
  const resend = useResendEtimsDocument();
  const [form, setForm] = useState<{ kind: 'resend' | 'signature'; doc: EtimsDocumentView } | null>(
    null,
  );
  const rows = query.data?.documents ?? [];
  const off = query.data?.enabled === false;
  const change = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value && value !== 'waiting') next.set('state', value);
    else next.delete('state');
    setParams(next, { replace: true });
    setPage(1);
  };
  const wide = useMediaQuery('(min-width: 48em)', true);
  const actions = (d: EtimsDocumentView) => (
    <DocumentActions
      d={d}
      sending={resend.isPending && resend.variables?.source === d.source}
      busy={resend.isPending}
      onResend={() => resend.mutate({ source: d.source, body: {} })}
      onForm={(kind) => setForm({ kind, doc: d })}
    />
  );
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>eTIMS</Title>
        <Anchor component={Link} to={paths.etimsSummary}>
          Daily eTIMS summary
        </Anchor>
      </Group>
      {off && (
        <Alert color="gray" variant="light" role="status" title="eTIMS is off">
          {M.off}
        </Alert>
      )}
      <Tabs value={tab} onChange={change}>
        <Tabs.List aria-label="Which documents" style={{ flexWrap: 'wrap' }}>
          {TABS.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {TAB_LABELS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t} value={t}>
            {null}
          </Tabs.Panel>
        ))}
      </Tabs>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && rows.length === 0 && !off}
        emptyText={EMPTY[tab]}
        errorText="The eTIMS documents could not be loaded."
      />
      {query.isError && (
        <Group justify="center">
          <Button variant="default" loading={query.isFetching} onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {rows.length > 0 &&
        (wide ? (
          <QueueTable rows={rows} actions={actions} />
        ) : (
          <QueueCards rows={rows} actions={actions} />
        ))}
      <PaginationControl
        page={page}
        totalPages={query.data?.pages ?? 0}
        onChange={setPage}
        total={query.data ? { total: query.data.total, totalIsLowerBound: false } : undefined}
        noun={{ one: 'document', many: 'documents' }}
      />
      <EtimsFormModal
        title={
          form?.kind === 'signature'
            ? `Signature of ${form.doc.trdInvcNo} from KRA’s portal`
            : `Resend ${form?.doc.trdInvcNo ?? ''} to KRA`
        }
        opened={form !== null}
        onClose={() => setForm(null)}
      >
        {form?.kind === 'resend' && <ResendForm document={form.doc} onDone={() => setForm(null)} />}
        {form?.kind === 'signature' && (
          <SignatureForm document={form.doc} onDone={() => setForm(null)} />
        )}
      </EtimsFormModal>
    </Stack>
  );
}
