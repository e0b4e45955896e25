import { Button, Group, Modal } from '@mantine/core';
import {
  canActOnTranche,
  localDateTime,
  shopToday,
  signedAtInstant,
  trancheLabel,
  trancheLineKey,
  trancheLineWords,
  type Role,
  type SignedNoteValues,
  type TranchePlanValues,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { showToast } from '../../../lib/query-client';
import {
  downloadDeliveryNote,
  useTrancheSteps,
  type Tranche,
  type TrancheLineStanding,
  type PlanTrancheBody,
} from '../api/tranches';
import { SignedNoteForm, TranchePlanForm } from './tranche-forms';

/** The form's values as the API takes a tranche: the lines with units only, the site trimmed. */
export function planBody(values: TranchePlanValues, lines: TrancheLineStanding[]): PlanTrancheBody {
  const { site } = values;
  return {
    site: {
      name: site.name.trim(),
      county: site.county,
      ...(site.subCounty ? { subCounty: site.subCounty } : {}),
      contact: { name: site.contact.name.trim(), phone: site.contact.phone.trim() },
    },
    date: values.date,
    lines: lines.flatMap((l, i) => {
      const quantity = values.quantities[i];
      return quantity
        ? [{ productId: l.productId, unitId: l.unitId, batchId: l.batchId, quantity }]
        : [];
    }),
  };
}

/** The units a tranche takes of each order line (0 where it takes none). */
export function unitsOfTranche(tranche: Tranche, lines: TrancheLineStanding[]) {
  const taken = new Map(tranche.lines.map((l) => [trancheLineKey(l), l.quantity]));
  return lines.map((l) => taken.get(trancheLineKey(l)) ?? 0);
}

/** What a tranche's change form starts from: the tranche as it stands. */
function changeDefaults(tranche: Tranche, lines: TrancheLineStanding[]): TranchePlanValues {
  return {
    site: {
      name: tranche.site.name,
      county: tranche.site.county,
      subCounty: tranche.site.subCounty,
      contact: { ...tranche.site.contact },
    },
    date: tranche.date,
    quantities: unitsOfTranche(tranche, lines).map((q) => q || undefined),
  };
}

/**
 * A tranche's steps for the signed-in role, as TRANCHE_RULES allows them from its state: dispatch
 * (confirmed), its delivery note, the signed note, and, on the order page (with the order's
 * lines), change and cancel. Each button is busy while its request is on its way.
 */
export function TrancheActions({
  tranche,
  role,
  orderLines,
}: {
  tranche: Tranche;
  role: Role;
  /** The order's lines where they stand: given on the order page, where a tranche can be changed. */
  orderLines?: TrancheLineStanding[];
}) {
  const steps = useTrancheSteps(tranche.orderId);
  const [open, setOpen] = useState<'dispatch' | 'cancel' | 'change' | 'delivery' | null>(null);
  const [printing, setPrinting] = useState(false);
  const can = (action: Parameters<typeof canActOnTranche>[0]) =>
    canActOnTranche(action, tranche.state, role);
  const label = trancheLabel(tranche.number);
  const name = `${label} of order ${tranche.purchaseNumber}`;
  const close = () => setOpen(null);

  const print = async () => {
    setPrinting(true);
    try {
      await downloadDeliveryNote(tranche.orderId, tranche.purchaseNumber, tranche.number);
    } catch (e) {
      showToast('error', (e as Error).message);
    } finally {
      setPrinting(false);
    }
  };

  const load = tranche.lines.map((l) => ({
    words: trancheLineWords(l, l.dispatched ?? l.quantity),
    max: l.dispatched ?? l.quantity,
  }));
  const recordDelivery = (values: SignedNoteValues) =>
    steps.recordDelivery.mutate(
      {
        number: tranche.number,
        body: {
          signedBy: values.signedBy.trim(),
          signedAt: signedAtInstant(values.signedAt, tranche.dispatchedAt),
          lines: tranche.lines.map((l, i) => {
            const line = values.lines[i]!;
            const short = (line.delivered ?? 0) < (l.dispatched ?? l.quantity);
            return {
              productId: l.productId,
              unitId: l.unitId,
              batchId: l.batchId,
              delivered: line.delivered ?? 0,
              ...(short ? { shortReason: line.shortReason.trim() } : {}),
            };
          }),
        },
      },
      { onSuccess: close },
    );

  const changeLines =
    orderLines?.map((l, i) => ({
      words: trancheLineWords(l, l.quantity),
      max: l.toPlan + (unitsOfTranche(tranche, orderLines)[i] ?? 0),
    })) ?? [];

  return (
    <>
      <Group gap="xs" role="group" aria-label={`${label} actions`}>
        {can('dispatch') && (
          <Button size="xs" onClick={() => setOpen('dispatch')} loading={steps.dispatch.isPending}>
            Dispatch
          </Button>
        )}
        {tranche.state !== 'Cancelled' && (
          <Button size="xs" variant="default" loading={printing} onClick={() => void print()}>
            Delivery note (PDF)
          </Button>
        )}
        {can('recordDelivery') && (
          <Button size="xs" variant="light" onClick={() => setOpen('delivery')}>
            Record signed note
          </Button>
        )}
        {orderLines && can('change') && (
          <Button size="xs" variant="light" onClick={() => setOpen('change')}>
            Change
          </Button>
        )}
        {orderLines && can('cancel') && (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => setOpen('cancel')}
            loading={steps.cancel.isPending}
          >
            Cancel tranche
          </Button>
        )}
      </Group>
      <ConfirmModal
        opened={open === 'dispatch'}
        onClose={close}
        onConfirm={() => steps.dispatch.mutateAsync(tranche.number)}
        title={`Dispatch ${label}`}
        message={`Dispatch ${name} to ${tranche.site.name}? Its seedlings leave the nursery and the site's contact is texted.`}
        confirmLabel="Dispatch"
        cancelLabel="Not yet"
        closeAfterMs={0}
        destructive={false}
      />
      <ConfirmModal
        opened={open === 'cancel'}
        onClose={close}
        onConfirm={() => steps.cancel.mutateAsync(tranche.number)}
        title={`Cancel ${label}`}
        message={`Cancel ${name}? Its units are free to plan again; its number is not reused.`}
        confirmLabel="Cancel tranche"
        cancelLabel="Keep it"
        closeAfterMs={0}
      />
      <Modal
        opened={open === 'delivery'}
        onClose={steps.recordDelivery.isPending ? () => undefined : close}
        title={`Signed delivery note · ${name}`}
        centered
        size="lg"
      >
        <SignedNoteForm
          lines={load}
          dispatchedAt={tranche.dispatchedAt}
          defaultValues={{
            signedBy: '',
            signedAt: localDateTime(new Date()),
            lines: load.map((l) => ({ delivered: l.max, shortReason: '' })),
          }}
          pending={steps.recordDelivery.isPending}
          onSubmit={recordDelivery}
        />
      </Modal>
      {orderLines && (
        <Modal
          opened={open === 'change'}
          onClose={steps.change.isPending ? () => undefined : close}
          title={`Change ${name}`}
          centered
          size="lg"
        >
          <TranchePlanForm
            lines={changeLines}
            today={shopToday()}
            defaultValues={changeDefaults(tranche, orderLines)}
            submitLabel={`Save ${label}`}
            pending={steps.change.isPending}
            onSubmit={(values) =>
              steps.change.mutate(
                { number: tranche.number, body: planBody(values, orderLines) },
                { onSuccess: close },
              )
            }
          />
        </Modal>
      )}
    </>
  );
}
