import { Alert, Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatMoney,
  priceUnit,
  toKenyanMsisdn,
  unitQuantityProblem,
  type TillSaleInput,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useRef, useState } from 'react';
import { useSessionUser } from '../../../lib/session-store';
import { useCreateSale } from '../api/sales';
import type { QueuedSale } from '../offline/offline-db';
import { enqueueSale } from '../offline/offline-queue';
import { OFFLINE_TEXTS, useOnline } from '../offline/offline-sync';
import { OfflineSaleDone } from './offline-sale-done';
import { basketTotal, useBasketStore, type BasketLine } from '../stores/basket-store';
import { Basket } from './basket';
import { PaymentPanel } from './payment-panel';
import { ProductPicker } from './product-picker';
import { SaleDone } from './sale-done';
import {
  changeDue,
  emptyPayState,
  mpesaKindOf,
  paymentProblem,
  paymentsFor,
  type PayState,
} from './till-payment';

export const OFFLINE_SELL_TEXTS = {
  notKept:
    'This device could not keep the sale (its storage is full or blocked): take no money; try again',
} as const;

export const TILL_SELL_TEXTS = {
  phoneInvalid: 'Enter a phone number such as 0712 345 678, or leave it empty',
} as const;

/** Why the sale cannot be charged yet: a line off its unit's rule, the payment, the phone. */
function saleProblem(
  lines: BasketLine[],
  pay: PayState,
  total: number,
  online: boolean,
): string | undefined {
  if (!online && mpesaKindOf(pay) === 'mpesa-express') return OFFLINE_TEXTS.promptOffline;
  for (const line of lines) {
    const problem = unitQuantityProblem(line.unit, line.quantity);
    if (problem) return problem;
  }
  const payment = paymentProblem(pay, total);
  if (payment) return payment;
  if (pay.phone.trim() && !toKenyanMsisdn(pay.phone)) return TILL_SELL_TEXTS.phoneInvalid;
  return undefined;
}

/**
 * A sale charged offline, as it waits in the queue: the input with the till's time and prices
 * (`offline`), its own Idempotency-Key made now, and what its offline receipt prints.
 */
export function queuedSaleOf(
  input: TillSaleInput,
  lines: BasketLine[],
  pay: PayState,
  total: number,
  seller: { _id: string; fullName: string },
): QueuedSale {
  const priced = lines.map((l) => ({
    line: l,
    unitPrice: priceUnit(l.unit, l.quantity).unitPrice,
  }));
  return {
    key: crypto.randomUUID(),
    staffId: seller._id,
    sellerName: seller.fullName,
    input: {
      ...input,
      offline: {
        soldAt: new Date().toISOString(),
        prices: priced.map(({ line, unitPrice }) => ({
          productId: line.productId,
          unitId: line.unit._id,
          unitPrice,
        })),
      },
    },
    lines: priced.map(({ line, unitPrice }) => ({
      productId: line.productId,
      name: line.productName,
      unitName: line.unit.name,
      seedlings: line.unit.seedlings,
      quantity: line.quantity,
      unitPrice,
      lineTotal: unitPrice * line.quantity,
    })),
    payments: input.payments,
    total,
    change: changeDue(pay, total),
  };
}

function saleInput(
  sessionId: string,
  lines: BasketLine[],
  pay: PayState,
  total: number,
): TillSaleInput {
  const phone = toKenyanMsisdn(pay.phone);
  return {
    sessionId,
    lines: lines.map((l) => ({ productId: l.productId, unitId: l.unit._id, quantity: l.quantity })),
    payments: paymentsFor(pay, total),
    ...(phone ? { phone } : {}),
  };
}

/**
 * Selling: the products (one column on a phone), the basket and the payment (a second column on a
 * tablet). "Charge" stays disabled, saying why, until the sale can be made; while it is sent it
 * shows it is busy; a refusal is shown under it in the API's words.
 */
export function TillSell({ sessionId }: { sessionId: string }) {
  const lines = useBasketStore((s) => s.lines);
  const add = useBasketStore((s) => s.add);
  const clear = useBasketStore((s) => s.clear);
  const keyFor = useBasketStore((s) => s.keyFor);
  const [pay, setPay] = useState<PayState>(emptyPayState);
  const [doneId, setDoneId] = useState<string | null>(null);
  const [offlineDone, setOfflineDone] = useState<QueuedSale | null>(null);
  const [offlineError, setOfflineError] = useState<string | null>(null);
  const online = useOnline();
  const user = useSessionUser();
  // On a phone the basket and payment are below the products: a bar at the bottom leads there.
  const payment = useRef<HTMLDivElement>(null);
  const sale = useCreateSale();
  const total = basketTotal(lines);
  const problem = saleProblem(lines, pay, total, online);
  const sending = sale.isPending;

  // Offline: the sale waits on this device under its own key, sent when the network returns.
  const chargeOffline = async () => {
    if (!user) return;
    const queued = queuedSaleOf(saleInput(sessionId, lines, pay, total), lines, pay, total, user);
    try {
      await enqueueSale(queued);
    } catch {
      setOfflineError(OFFLINE_SELL_TEXTS.notKept);
      return;
    }
    setOfflineError(null);
    clear();
    setPay(emptyPayState());
    setOfflineDone(queued);
  };

  const charge = () => {
    if (!online) return void chargeOffline();
    const input = saleInput(sessionId, lines, pay, total);
    sale.mutate(
      { input, idempotencyKey: keyFor(input) },
      {
        // The sale is made: its basket goes, so coming back to the till never sells it twice.
        onSuccess: ({ sale: made }) => {
          clear();
          setPay(emptyPayState());
          setDoneId(made.orderId);
        },
      },
    );
  };
  const newSale = () => {
    sale.reset();
    setDoneId(null);
    setOfflineDone(null);
  };

  if (offlineDone) return <OfflineSaleDone sale={offlineDone} onNewSale={newSale} />;
  if (doneId) return <SaleDone orderId={doneId} onNewSale={newSale} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <Stack>
        <Card withBorder padding="md" component="section" aria-label="Products">
          <ProductPicker onPick={add} disabled={sending} />
        </Card>
        {lines.length > 0 && (
          <Button
            hiddenFrom="sm"
            size="lg"
            variant="filled"
            color="dark"
            pos="sticky"
            bottom={8}
            style={{ zIndex: 2 }}
            onClick={() => payment.current?.scrollIntoView({ behavior: 'smooth' })}
          >
            {`Basket ${formatMoney(total)} · Pay`}
          </Button>
        )}
      </Stack>
      <Stack ref={payment}>
        <Card withBorder padding="md" component="section" aria-label="Basket">
          <Title order={3} mb="sm">
            Basket
          </Title>
          <Basket disabled={sending} />
        </Card>
        <Card withBorder padding="md" component="section" aria-label="Payment">
          <Title order={3} mb="sm">
            Payment
          </Title>
          <PaymentPanel
            total={total}
            pay={pay}
            onChange={setPay}
            disabled={sending}
            offline={!online}
          />
        </Card>
        {sale.isError && (
          <Alert color="red" role="alert" title="The sale was not made">
            {errorMessage(sale.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Alert>
        )}
        {offlineError && (
          <Alert color="red" role="alert" title="The sale was not made">
            {offlineError}
          </Alert>
        )}
        {problem && lines.length > 0 && (
          <Text c="red" data-testid="charge-problem">
            {problem}
          </Text>
        )}
        <Button
          size="lg"
          h={64}
          fz="lg"
          styles={{ label: { whiteSpace: 'normal' } }}
          onClick={charge}
          disabled={!!problem || sending}
          loading={sending}
        >
          {total > 0 ? `Charge ${formatMoney(total)}` : 'Charge'}
        </Button>
      </Stack>
    </SimpleGrid>
  );
}
