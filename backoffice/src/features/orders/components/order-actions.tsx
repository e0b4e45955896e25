import { ActionIcon, Button, Group, List, Menu, Modal, Stack, Text, Tooltip } from '@mantine/core';
import {
  BOOKING_REFUSALS,
  BOOKING_RULES,
  checkOrderAction,
  formatDate,
  formatMoney,
  type ActionCheck,
  type OrderAction,
  type OrderState,
  type PaymentForm,
  type RefundForm,
  type Role,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useCancelOrder } from '../api/cancel-order';
import { useCompletePayment } from '../api/complete-payment';
import { useCompleteOrder } from '../api/complete-order';
import { useConfirmDelivery } from '../api/confirm-delivery';
import type { Order } from '../api/get-orders';
import { useMoveInTransit } from '../api/move-in-transit';
import { PaymentFormFields } from './payment-form';
import { CancelAndRefund } from './refund-form';

type MenuAction = 'completePayment' | 'inTransit' | 'confirmDelivery' | 'fulfil' | 'cancel';

/** The row menu's entries and the state-machine action each one takes. */
export const ORDER_MENU: { action: MenuAction; label: string }[] = [
  { action: 'completePayment', label: 'Complete Payment' },
  { action: 'inTransit', label: 'In transit' },
  { action: 'fulfil', label: 'Fulfill Order' },
  { action: 'cancel', label: 'Cancel Order' },
];

/** The order detail's buttons: the menu's four and Confirm Delivery, in the order's life order. */
export const ORDER_BUTTONS: { action: MenuAction; label: string }[] = [
  ORDER_MENU[0]!,
  ORDER_MENU[1]!,
  { action: 'confirmDelivery', label: 'Confirm Delivery' },
  ORDER_MENU[2]!,
  ORDER_MENU[3]!,
];

/**
 * A booking's own rules (the API's): it goes out only once its balance is paid, from a ready
 * batch, and takes payments only while it is live; the buttons say so instead of offering what the
 * server refuses. Null: the order's own rules decide.
 */
export function bookingCheck(order: Order, action: MenuAction): ActionCheck | null {
  const b = order.booking;
  if (!b) return null;
  const refuse = (reason: string): ActionCheck => ({
    allowed: false,
    reason,
    code: 'ILLEGAL_TRANSITION',
  });
  const rule = BOOKING_RULES[b.state];
  if (action === 'completePayment' && !rule.takes && b.state !== 'Paid')
    return refuse(BOOKING_REFUSALS.noPayment(b.state));
  if (action !== 'inTransit' || rule.acts.handOver) return null;
  if (rule.waitsFor === 'batch') return refuse(BOOKING_REFUSALS.notReady(formatDate(b.readyOn)));
  if (rule.waitsFor === 'balance') return refuse(BOOKING_REFUSALS.balanceFirst);
  return refuse(BOOKING_REFUSALS.notOut(b.state));
}

/**
 * An order delivered in tranches (issue 43) goes out and is delivered tranche by tranche: the whole
 * order's In transit and Confirm Delivery are refused (the API answers 409), and completing it waits
 * until every tranche is delivered. The API's words, so the button says what the server would.
 * Null: the order's own rules decide.
 */
export function tranchesCheck(order: Order, action: MenuAction): ActionCheck | null {
  if (!order.inTranches) return null;
  const refuse = (reason: string): ActionCheck => ({
    allowed: false,
    reason,
    code: 'ILLEGAL_TRANSITION',
  });
  const n = order.purchaseNumber;
  if (action === 'inTransit')
    return refuse(
      `Order ${n} is delivered in tranches: dispatch each tranche from the dispatch desk (the order is in transit from its first)`,
    );
  if (action === 'confirmDelivery')
    return refuse(
      `Order ${n} is delivered in tranches: record each tranche's signed delivery note (the order is delivered once every unit is)`,
    );
  if (action === 'fulfil' && order.orderStatus === 'InTransit')
    return refuse(
      `Order ${n} is delivered in tranches and some are not delivered yet: record their signed notes before completing it`,
    );
  return null;
}

/** Which menu entries this role sees: staff all four, admins none, anyone else only Cancel. */
export function menuFor(role: Role | undefined, entries = ORDER_MENU) {
  if (role === 'admin') return [];
  if (role === 'staff') return entries;
  return entries.filter((m) => m.action === 'cancel');
}

const CONFIRM: Record<Exclude<MenuAction, 'completePayment'>, { title: string; verb: string }> = {
  inTransit: { title: 'Move to In Transit', verb: 'move to in transit' },
  fulfil: { title: 'Complete', verb: 'complete' },
  confirmDelivery: { title: 'Confirm Delivery', verb: 'mark as delivered' },
  cancel: { title: 'Cancel', verb: 'cancel' },
};

/**
 * Per-row menu; what the order's status forbids is disabled, with the reason in a tooltip. With
 * `layout="buttons"` (the order detail) the same actions and modals as buttons, Confirm Delivery
 * included, and the reasons for the refused ones written out beneath.
 */
export function OrderActions({
  order,
  role,
  layout = 'menu',
}: {
  order: Order;
  role: Role;
  layout?: 'menu' | 'buttons';
}) {
  const [open, setOpen] = useState<MenuAction | null>(null);
  const completePayment = useCompletePayment();
  const inTransit = useMoveInTransit();
  const fulfil = useCompleteOrder();
  const cancel = useCancelOrder();
  const confirmDelivery = useConfirmDelivery();
  const entries = menuFor(role, layout === 'buttons' ? ORDER_BUTTONS : ORDER_MENU);
  if (!entries.length) return null;
  const state = order as unknown as OrderState;

  const run: Record<Exclude<MenuAction, 'completePayment'>, () => Promise<unknown>> = {
    inTransit: () => inTransit.mutateAsync(order._id),
    fulfil: () => fulfil.mutateAsync(order._id),
    confirmDelivery: () => confirmDelivery.mutateAsync(order._id),
    cancel: () => cancel.mutateAsync({ id: order._id }),
  };
  // A paid (or part-paid) order is cancelled only with its refund recorded: the refund form instead
  // (it reads what may be given back from the order's money ledger).
  const paid = order.paymentStatus === 'Paid' || order.amountPaid > 0;
  // A booking whose deposit is paid pays what is still due of it (its balance) through Complete
  // Payment.
  const balanceDue = order.booking?.depositPaidAt ? order.amountDueNow : null;

  const refund = (values: RefundForm | null) =>
    cancel.mutate(
      {
        id: order._id,
        ...(values && {
          refund: {
            method: values.method,
            amount: values.amount,
            ...(values.reference ? { reference: values.reference } : {}),
            ...(values.method === 'Mpesa' && values.send ? { send: true } : {}),
          },
        }),
      },
      { onSuccess: () => setOpen(null) },
    );

  const pay = (values: PaymentForm) =>
    completePayment.mutate(
      {
        orderId: order._id,
        body: {
          paymentMethod: values.paymentMethod,
          paymentDetails: {
            amount: values.amount,
            ...(values.paymentMethod === 'Mpesa'
              ? {
                  transactionCode: values.transactionCode,
                  timePaid: values.timePaid ? new Date(values.timePaid).toISOString() : undefined,
                }
              : {}),
          },
        },
      },
      { onSuccess: () => setTimeout(() => setOpen(null), 1000) },
    );

  const check = (action: MenuAction) => {
    const own = checkOrderAction(state, action as OrderAction, role);
    // Tranches refuse only what the order's own rules would allow (the API's order of checks).
    return (
      bookingCheck(order, action) ?? (own.allowed ? (tranchesCheck(order, action) ?? own) : own)
    );
  };
  const checks = entries.map((entry) => ({ ...entry, check: check(entry.action) }));
  const refused = checks.filter((c) => !c.check.allowed);
  const trigger =
    layout === 'buttons' ? (
      <Stack gap="xs">
        <Group gap="xs">
          {checks.map(({ action, label, check }) => (
            <Button
              key={action}
              variant={check.allowed ? 'filled' : 'default'}
              disabled={!check.allowed}
              onClick={() => setOpen(action)}
            >
              {label}
            </Button>
          ))}
        </Group>
        {refused.length > 0 && (
          <List size="sm" c="dimmed" aria-label="Why some actions are not available">
            {refused.map(({ action, label, check }) => (
              <List.Item key={action} data-testid={`reason-${action}`}>
                {label}: {check.allowed ? '' : check.reason}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    ) : (
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Actions for order ${order.purchaseNumber}`}>
            ⋮
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {entries.map(({ action, label }) => {
            const verdict = check(action);
            const item = (
              <Menu.Item key={action} disabled={!verdict.allowed} onClick={() => setOpen(action)}>
                {label}
              </Menu.Item>
            );
            return verdict.allowed ? (
              item
            ) : (
              <Tooltip key={action} label={verdict.reason} position="left" withinPortal>
                <div data-testid={`reason-${action}`} aria-label={verdict.reason}>
                  {item}
                </div>
              </Tooltip>
            );
          })}
        </Menu.Dropdown>
      </Menu>
    );

  return (
    <>
      {trigger}
      <Modal
        opened={open === 'completePayment'}
        onClose={() => setOpen(null)}
        title={`Complete Payment · ${order.purchaseNumber}`}
        centered
      >
        <Text size="sm" c="dimmed" mb="sm">
          {balanceDue === null
            ? `Order total ${formatMoney(order.totalAmount, 'KSH')}`
            : `Balance of the booking ${formatMoney(balanceDue, 'KSH')} (order total ${formatMoney(order.totalAmount, 'KSH')}, deposit paid)`}
        </Text>
        <PaymentFormFields
          total={balanceDue ?? order.totalAmount}
          pending={completePayment.isPending}
          onSubmit={pay}
        />
      </Modal>
      <Modal
        opened={paid && open === 'cancel'}
        onClose={() => !cancel.isPending && setOpen(null)}
        title={`Cancel and refund · ${order.purchaseNumber}`}
        centered
      >
        <CancelAndRefund
          order={order}
          pending={cancel.isPending}
          onSubmit={refund}
          onCancel={() => setOpen(null)}
        />
      </Modal>
      {(['inTransit', 'confirmDelivery', 'fulfil', 'cancel'] as const).map((action) => (
        <ConfirmModal
          key={action}
          opened={open === action && !(action === 'cancel' && paid)}
          onClose={() => setOpen(null)}
          onConfirm={run[action]}
          title={CONFIRM[action].title}
          message={`are you sure you want to ${CONFIRM[action].verb} this order (${order.purchaseNumber})?`}
          closeAfterMs={1000}
        />
      ))}
    </>
  );
}
