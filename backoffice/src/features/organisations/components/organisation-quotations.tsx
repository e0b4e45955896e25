import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import {
  formatDate,
  formatMoney,
  QUOTATION_LIMITS,
  type QuotationRequestLine,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ListState } from '../../../components/list-state';
import { QuotationStatusBadge } from '../../../components/quotation-status-badge';
import { paths } from '../../../config/paths';
import { useCatalogueUnits, type CatalogueProduct } from '../api/organisations';
import { useCreateQuotation, useOrganisationQuotations } from '../api/organisation-quotations';

type Draft = { productId: string; unitId: string; quantity: number | '' };
const EMPTY: Draft = { productId: '', unitId: '', quantity: '' };

/** What staff take down from a phone call: the lines asked and a note; pricing is the desk's. */
function NewQuotationForm({
  products,
  pending,
  onSubmit,
}: {
  products: CatalogueProduct[];
  pending: boolean;
  onSubmit: (body: { lines: QuotationRequestLine[]; note: string }) => void;
}) {
  const [lines, setLines] = useState<Draft[]>([EMPTY]);
  const [note, setNote] = useState('');
  const set = (i: number, patch: Partial<Draft>) =>
    setLines((all) => all.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const complete = lines.every((l) => l.productId && l.unitId && Number(l.quantity) >= 1);
  return (
    <form
      aria-label="New quotation"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!complete) return;
        onSubmit({
          lines: lines.map((l) => ({
            productId: l.productId,
            unitId: l.unitId,
            quantity: Number(l.quantity),
          })),
          note: note.trim(),
        });
      }}
    >
      <Stack gap="sm">
        {lines.map((l, i) => {
          const units = products.find((p) => p._id === l.productId)?.units ?? [];
          return (
            <Group key={i} align="flex-end" wrap="wrap" gap="xs" aria-label={`Line ${i + 1}`}>
              <NativeSelect
                label="Product"
                data={[
                  { value: '', label: 'Choose a product' },
                  ...products.map((p) => ({ value: p._id, label: p.name })),
                ]}
                value={l.productId}
                onChange={(e) => set(i, { productId: e.currentTarget.value, unitId: '' })}
                w={{ base: '100%', xs: 220 }}
              />
              <NativeSelect
                label="Unit"
                data={[
                  { value: '', label: 'Choose a unit' },
                  ...units.map((u) => ({ value: u._id, label: u.name })),
                ]}
                value={l.unitId}
                onChange={(e) => set(i, { unitId: e.currentTarget.value })}
                w={{ base: '100%', xs: 160 }}
              />
              <NumberInput
                label="Quantity"
                min={1}
                allowDecimal={false}
                thousandSeparator=","
                value={l.quantity}
                onChange={(v) => set(i, { quantity: v === '' ? '' : Number(v) })}
                w={{ base: '100%', xs: 140 }}
              />
              {lines.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove line ${i + 1}`}
                  onClick={() => setLines((all) => all.filter((_, j) => j !== i))}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          );
        })}
        <Button
          variant="default"
          onClick={() => setLines((all) => [...all, EMPTY])}
          disabled={lines.length >= QUOTATION_LIMITS.lines}
          style={{ alignSelf: 'flex-start' }}
        >
          Add a line
        </Button>
        <Textarea
          label="Note (what the caller said)"
          autosize
          minRows={2}
          maxLength={QUOTATION_LIMITS.note}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        <Button type="submit" loading={pending} disabled={!complete}>
          Create the quotation
        </Button>
      </Stack>
    </form>
  );
}

/** An organisation's quotations, and a new one written by staff from a phone call. */
export function OrganisationQuotations({
  organisationId,
  approved,
}: {
  organisationId: string;
  approved: boolean;
}) {
  const query = useOrganisationQuotations(organisationId);
  const [opened, setOpened] = useState(false);
  const catalogue = useCatalogueUnits(opened);
  const create = useCreateQuotation(organisationId);
  const navigate = useNavigate();
  const rows = query.data?.quotations ?? [];
  return (
    <Stack gap="sm">
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && rows.length === 0}
        emptyText="No quotations yet."
      />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" aria-label="Quotations of the organisation">
            <Table.Tbody>
              {rows.map((q) => (
                <Table.Tr key={q._id}>
                  <Table.Td ff="monospace">
                    <Anchor component={Link} to={paths.quotation(q._id)}>
                      {q.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <QuotationStatusBadge status={q.status} />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {q.total === null ? '—' : formatMoney(q.total)}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(q.updatedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {approved ? (
        <Button onClick={() => setOpened(true)} style={{ alignSelf: 'flex-start' }}>
          New quotation
        </Button>
      ) : (
        <Text size="sm" c="dimmed">
          Quotations are for approved organisations.
        </Text>
      )}
      <Modal opened={opened} onClose={() => setOpened(false)} title="New quotation" size="lg">
        {catalogue.isPending ? (
          <Text size="sm">Loading the products…</Text>
        ) : (
          <NewQuotationForm
            products={catalogue.data ?? []}
            pending={create.isPending}
            onSubmit={(body) =>
              create.mutate(body, {
                onSuccess: ({ quotation }) => navigate(paths.quotation(quotation._id)),
              })
            }
          />
        )}
      </Modal>
    </Stack>
  );
}
