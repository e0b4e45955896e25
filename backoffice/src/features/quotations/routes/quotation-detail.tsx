import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  addDays,
  BACKOFFICE_MESSAGES,
  canActOnQuotation,
  formatDate,
  formatDateTime,
  LPO_SCAN_MESSAGES,
  LPO_SCAN_TEXTS,
  scanDescription,
  shopToday,
  type QuotationAcceptanceView,
  type QuotationDraftForm,
  type QuotationView,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { QuotationStatusBadge } from '../../../components/quotation-status-badge';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import { useAcceptQuotation, useAttachLpoScanAfterAccept } from '../api/accept-quotation';
import { useProductUnits } from '../api/get-draft-choices';
import { useQuotation } from '../api/get-quotation';
import {
  useSaveDraft,
  useSendQuotation,
  useWithdrawQuotation,
  useWriteMessage,
} from '../api/quotation-steps';
import { AcceptPanel } from '../components/accept-panel';
import { DraftEditor } from '../components/draft-editor';
import { QuotationThread } from '../components/quotation-thread';
import { deliveryText, SentVersion, VersionLines } from '../components/quotation-version';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The draft to edit: the staff's unsent draft, else the latest version, else the request. */
export function draftFormOf(q: QuotationView): QuotationDraftForm {
  const base = q.draft ?? q.versions[q.versions.length - 1];
  const delivery = base?.delivery ?? q.request.delivery;
  return {
    lines: base
      ? base.lines.map((l) => ({
          productId: l.productId,
          unitId: l.unitId,
          quantity: l.quantity,
          batchId: l.source.kind === 'batch' ? l.source.batchId : '',
          unitPrice: l.unitPrice,
        }))
      : q.request.lines.map((l) => ({
          productId: l.productId,
          unitId: l.unitId,
          quantity: l.quantity,
          batchId: l.batchId ?? '',
        })),
    delivery: {
      siteName: delivery?.siteName ?? '',
      county: delivery?.county ?? '',
      subCounty: delivery?.subCounty ?? '',
      streetAddress: delivery?.streetAddress ?? '',
      date: delivery?.date ?? '',
    },
    deliveryFee: base?.deliveryFee ?? 0,
    validUntil: base && base.validUntil >= shopToday() ? base.validUntil : addDays(shopToday(), 30),
    note: base?.note ?? '',
  };
}

function DraftSection({ q }: { q: QuotationView }) {
  const products = useProductUnits();
  const save = useSaveDraft(q._id);
  const send = useSendQuotation(q._id);
  const next = q.versions.length + 1;
  return (
    <Section title="Draft">
      {products.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading" />
      ) : products.isError ? (
        <Text c="red" role="alert">
          {errorMessage(products.error, BACKOFFICE_MESSAGES.listError)}
        </Text>
      ) : (
        <DraftEditor
          key={q.updatedAt}
          initial={draftFormOf(q)}
          priced={q.draft?.lines ?? []}
          products={products.data}
          pending={save.isPending}
          disabled={send.isPending}
          onSubmit={(v) => save.mutate(v)}
        />
      )}
      <Group mt="md" align="center">
        <Button
          onClick={() => send.mutate(undefined)}
          loading={send.isPending}
          disabled={!q.draft || save.isPending}
        >
          Send version {next}
        </Button>
        {!q.draft && (
          <Text size="sm" c="dimmed">
            Save the draft before sending it.
          </Text>
        )}
      </Group>
      {q.draft && (
        <Stack mt="md" gap="xs">
          <Text fw={600} size="sm">
            The draft as saved
          </Text>
          <VersionLines version={q.draft} />
        </Stack>
      )}
    </Section>
  );
}

/**
 * Whether the accepted quotation's order has its scanned LPO: sending it right after the
 * acceptance, attached, or not (then the order page attaches it; a failed send says the order
 * stands).
 */
function LpoScanLine({
  acceptance: a,
  attach,
  role,
}: {
  acceptance: QuotationAcceptanceView;
  attach: ReturnType<typeof useAttachLpoScanAfterAccept>;
  role: 'staff' | 'admin';
}) {
  const order = (
    <Anchor component={Link} to={paths.orderDetail(role, a.orderId)} underline="always">
      order {a.purchaseNumber}
    </Anchor>
  );
  if (attach.isPending) return <Text size="sm">{LPO_SCAN_TEXTS.sending}</Text>;
  if (attach.isError && !a.lpoScan)
    return (
      <Alert color="red" role="alert" title={LPO_SCAN_MESSAGES.notAttached}>
        <Text size="sm">
          {errorMessage(attach.error, LPO_SCAN_MESSAGES.notAttached)} Attach it on {order}.
        </Text>
      </Alert>
    );
  return (
    <Text size="sm" c="dimmed">
      {a.lpoScan
        ? `Scanned LPO: ${scanDescription(a.lpoScan)}, attached ${formatDateTime(a.lpoScan.uploadedAt)}`
        : `${LPO_SCAN_TEXTS.none}: attach it on the order`}{' '}
      ({order}).
    </Text>
  );
}

function QuotationPage({ q }: { q: QuotationView }) {
  const role = useSessionRole() === 'admin' ? 'admin' : 'staff';
  const accept = useAcceptQuotation(q._id);
  const attachScan = useAttachLpoScanAfterAccept();
  const withdraw = useWithdrawQuotation(q._id);
  const reply = useWriteMessage(q._id);
  const [withdrawing, setWithdrawing] = useState(false);
  return (
    <Stack>
      <Anchor component={Link} to={paths.manageQuotations} size="sm">
        ← Quotations
      </Anchor>
      <Group gap="sm">
        <Title order={2}>{q.number}</Title>
        <QuotationStatusBadge status={q.status} />
      </Group>
      <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Anchor component={Link} to={paths.organisation(q.organisationId)}>
          {q.organisationName}
        </Anchor>{' '}
        · asked by {q.requestedBy} on {formatDate(q.createdAt)}
      </Text>
      {q.acceptance && (
        <Text role="status">
          Accepted version {q.acceptance.version} with LPO {q.acceptance.lpoNumber} on{' '}
          {formatDateTime(q.acceptance.acceptedAt)} by {q.acceptance.acceptedBy}
          {q.acceptance.byShop ? ' (on the buyer’s word)' : ''}: order{' '}
          <Anchor component={Link} to={paths.orderDetail(role, q.acceptance.orderId)}>
            {q.acceptance.purchaseNumber}
          </Anchor>
          .
        </Text>
      )}
      {q.acceptance && <LpoScanLine acceptance={q.acceptance} attach={attachScan} role={role} />}
      <Section title="Request">
        <Stack gap="xs">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Delivery: {deliveryText(q.request.delivery)}
          </Text>
          <Text size="sm">
            {q.request.lines.length} line{q.request.lines.length === 1 ? '' : 's'} asked
          </Text>
          {q.request.note && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {q.request.note}
            </Text>
          )}
        </Stack>
      </Section>
      {q.versions.map((v) => (
        <SentVersion key={v.version} quotationId={q._id} number={q.number} version={v} />
      ))}
      {canActOnQuotation('send', q.status, role) && <DraftSection q={q} />}
      {canActOnQuotation('accept', q.status, role) && q.versions.length > 0 && (
        <Section title="Accept on the buyer's word">
          <AcceptPanel
            versions={q.versions.map((v) => v.version)}
            pending={accept.isPending}
            error={accept.error}
            onAccept={(body, scan) =>
              accept.mutate(body, {
                onSuccess: (res) => {
                  if (scan) attachScan.mutate({ orderId: res.order._id, file: scan });
                },
              })
            }
          />
        </Section>
      )}
      {canActOnQuotation('withdraw', q.status, role) && (
        <Group>
          <Button color="red" variant="outline" onClick={() => setWithdrawing(true)}>
            Withdraw
          </Button>
        </Group>
      )}
      <Section title="Messages">
        <QuotationThread
          messages={q.messages}
          pending={reply.isPending}
          onReply={(text) => reply.mutateAsync(text)}
        />
      </Section>
      <ConfirmModal
        opened={withdrawing}
        onClose={() => setWithdrawing(false)}
        onConfirm={() => withdraw.mutateAsync('')}
        message="are you sure you want to withdraw this quotation?"
        confirmLabel="Withdraw"
      />
    </Stack>
  );
}

/** /manage/quotations/:id: the request, each version sent, the draft, acceptance and thread. */
export function QuotationDetailRoute() {
  const { id = '' } = useParams();
  const query = useQuotation(id);
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (query.isError)
    return (
      <Stack>
        <Text c="red" role="alert">
          {errorMessage(query.error, BACKOFFICE_MESSAGES.listError)}
        </Text>
        <Anchor component={Link} to={paths.manageQuotations}>
          Back to quotations
        </Anchor>
      </Stack>
    );
  return <QuotationPage q={query.data} />;
}
