import {
  bookingDeposit,
  formatMoney,
  STOREFRONT_MESSAGES,
  TIMINGS,
  type CheckoutForm,
  type DeliveryMethod,
} from '@spc/shared-contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field } from '../../../components/field';
import { ProductImage } from '../../../components/product-image';
import { CHECKOUT_STEPS, Steps } from '../../../components/steps';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useOnline } from '../../../lib/use-online';
import { cartKey, useCartItems, useCartStore } from '../../../stores/cart-store';
import { cartGroups } from '../../../stores/cart-groups';
import { readyDay } from '../../../lib/ready-day';
import { useBookingSettings } from '../../../lib/booking-settings';
import { LineUnit, lineTotal, linesTotalAt } from '../../../components/line-unit';
import { useCartPriceList } from '../../../components/organisation-prices';
import { useOrderBannerStore } from '../../../stores/order-banner-store';
import { useSessionStore } from '../../../stores/session-store';
import { useDeliveryOptions } from '../api/get-delivery-options';
import { usePaymentOptions } from '../api/get-payment-options';
import { usePlaceOrder } from '../api/place-order';
import { DeliveryOptions } from '../components/delivery-options';
import { LocationSelects } from '../components/location-selects';
import { MpesaPayment } from '../../../components/mpesa-payment';

// The form's rules (zod with the shared schema, 26 KB gzip, more than the rest of this screen) load
// when the shopper starts on the form, or at once for a form filled from their account: an empty
// form cannot be valid (its required fields are empty), which needs no rules to say.
let rules: Promise<typeof import('../checkout-resolver')> | undefined;
const loadRules = () =>
  (rules ??= import('../checkout-resolver').catch((error: unknown) => {
    rules = undefined; // the network dropped: tried again at the next check
    throw error;
  }));
const resolver: Resolver<CheckoutForm> = async (values, context, options) => {
  if (!rules && Object.values(values).every((value) => !value))
    return { values: {}, errors: { fullName: { type: 'required' } } };
  return (await loadRules()).checkoutResolver(values, context, options);
};

const OFFLINE_ORDER = 'You are offline: placing an order needs the network. Your cart is kept.';

type PaymentChoice = 'delivery' | 'paybill' | 'mpesa-express';

interface Placed {
  purchaseNumber: string;
  whatsappUrl: string;
  totalAmount: number;
  /** The delivery phone, offered as the M-Pesa number. */
  phoneNumber: string;
  /** `pay`: the M-Pesa Express step is next; `done`: the confirmation. */
  stage: 'pay' | 'done';
  /** Set when M-Pesa Express confirmed the payment. */
  paidMessage?: string;
  /** A booking's deposit (what the prompt asks) and ready day; null on an ordinary order. */
  booking: { deposit: number; balance: number; readyOn: string } | null;
}

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `k${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

/** /checkout. */
export function CheckoutRoute() {
  const user = useSessionStore((s) => s.user);
  const setUser = useSessionStore((s) => s.setUser);
  const cart = useCartItems();
  const [params] = useSearchParams();
  // One order at a time: the ready-now lines, or one batch's booking (?batch=), the first otherwise.
  const groups = cartGroups(cart);
  const group = groups.find((g) => g.key === (params.get('batch') ?? '')) ?? groups[0];
  const items = group?.items ?? [];
  // A buyer of an approved organisation pays its price list, as the API prices the order.
  const list = useCartPriceList();
  const total = linesTotalAt(items, list);
  const bookingDay = group?.key ? group.readyOn : '';
  const otherLines = cart.length - items.length;
  // The deposit share shows only beside a booking.
  const settings = useBookingSettings(Boolean(bookingDay));
  const navigate = useNavigate();
  const placeOrder = usePlaceOrder();
  const idempotencyKey = useRef(newKey());
  const submitting = useRef(false);
  const [placed, setPlaced] = useState<Placed | null>(null);
  const [chosenPayment, setPayment] = useState<PaymentChoice>('delivery');
  const [deliveryMethod, setDeliveryMethod] = useState<DeliveryMethod>('delivery');
  const mpesaExpress = usePaymentOptions().data?.mpesaExpress === true;
  // A booking's deposit is paid now: by the M-Pesa prompt, or the paybill; never on delivery.
  const payment: PaymentChoice =
    bookingDay && chosenPayment === 'delivery'
      ? mpesaExpress
        ? 'mpesa-express'
        : 'paybill'
      : chosenPayment;
  const online = useOnline();
  const payingByPrompt = payment === 'mpesa-express' && mpesaExpress;

  const {
    register,
    handleSubmit,
    control,
    setValue,
    reset,
    formState: { errors, isValid },
  } = useForm<CheckoutForm>({
    resolver,
    mode: 'onChange',
    defaultValues: {
      fullName: user?.fullName ?? '',
      phoneNumber: user?.phoneNumber ?? '',
      email: user?.email ?? '',
      county: user?.county ?? '',
      subCounty: '',
      ward: '',
      streetAddress: user?.streetAddress ?? '',
      kraPin: user?.kraPin ?? '',
    },
  });

  const countyValue = useWatch({ control, name: 'county' });
  const subCountyValue = useWatch({ control, name: 'subCounty' });
  const deliveryOptions = useDeliveryOptions(countyValue ?? '', subCountyValue ?? '');
  // The fee shown is the server's for this place; the server computes it again on placing.
  const chosenDelivery = countyValue
    ? deliveryOptions.data?.options.find((o) => o.method === deliveryMethod)
    : undefined;

  useEffect(() => {
    // The M-Pesa confirmation stays: it is the shopper's proof of payment.
    if (placed?.stage !== 'done' || placed.paidMessage) return;
    const t = setTimeout(() => navigate(paths.shop), TIMINGS.redirectAfterSuccessMs);
    return () => clearTimeout(t);
  }, [placed, navigate]);

  const onPaid = useCallback(
    (message: string) => setPlaced((p) => (p ? { ...p, stage: 'done', paidMessage: message } : p)),
    [],
  );

  /** Leaves the M-Pesa step: the order stays, to be paid on delivery. */
  const payLater = () => {
    if (!placed) return;
    setPlaced({ ...placed, stage: 'done' });
    window.open(placed.whatsappUrl, '_blank', 'noopener,noreferrer');
  };

  const submit = async ({ kraPin = '', ...guestInfo }: CheckoutForm) => {
    if (submitting.current) return;
    submitting.current = true;
    try {
      const res = await placeOrder.mutateAsync({
        guestInfo,
        // Left empty: none, also when the profile has one (it was shown here and taken off);
        // without either, left out.
        ...(kraPin || user?.kraPin ? { kraPin } : {}),
        products: items.map((i) => ({
          _id: i._id,
          quantity: i.quantity,
          ...(i.unit && i.unit._id !== i._id ? { unitId: i.unit._id } : {}),
          ...(i.booking ? { batchId: i.booking.batchId } : {}),
        })),
        deliveryMethod,
        idempotencyKey: idempotencyKey.current,
      });
      idempotencyKey.current = newKey();
      // The cart's other orders (ready now, other bookings) stay for their own checkout.
      const cartStore = useCartStore.getState();
      if (otherLines > 0) cartStore.removeLines(items.map((i) => cartKey(i)));
      else cartStore.clearCart();
      const booking = res.order.booking ?? null;
      if (user) {
        setUser({
          ...user,
          fullName: guestInfo.fullName,
          phoneNumber: guestInfo.phoneNumber,
          county: guestInfo.county,
          streetAddress: guestInfo.streetAddress,
        });
      }
      reset();
      // The number stays in view on the shop page, in a banner, until the shopper closes it.
      useOrderBannerStore.getState().show(res.order.purchaseNumber);
      // On a phone the button sits at the bottom: bring the thank-you and the number into view.
      window.scrollTo({ top: 0 });
      toast.success(res.message);
      setPlaced({
        purchaseNumber: res.order.purchaseNumber,
        whatsappUrl: res.order.whatsappUrl,
        totalAmount: res.order.totalAmount,
        phoneNumber: guestInfo.phoneNumber,
        stage: payingByPrompt ? 'pay' : 'done',
        booking: booking
          ? { deposit: booking.deposit, balance: booking.balance, readyOn: booking.readyOn }
          : null,
      });
      // With M-Pesa Express the chat link waits for the confirmation: the shopper is paying first.
      if (!payingByPrompt) window.open(res.order.whatsappUrl, '_blank', 'noopener,noreferrer');
    } catch (e) {
      // The server answered: that attempt is over, the next one gets a fresh key.
      if (e instanceof ApiError) {
        idempotencyKey.current = newKey();
        toast.error(e.message);
      } else if (!navigator.onLine) {
        toast.error(OFFLINE_ORDER);
      } else {
        toast.error(STOREFRONT_MESSAGES.somethingWentWrong);
      }
    } finally {
      submitting.current = false;
    }
  };

  if (placed?.stage === 'pay') {
    return (
      <div className="page">
        <Steps current={1} labels={CHECKOUT_STEPS} />
        <h1>Pay with M-Pesa</h1>
        {placed.booking ? (
          <p>
            Booking <strong data-testid="purchase-number">{placed.purchaseNumber}</strong> is
            placed. Deposit to pay now:{' '}
            <strong data-testid="deposit-due">{formatMoney(placed.booking.deposit)}</strong>.
          </p>
        ) : (
          <p>
            Order <strong data-testid="purchase-number">{placed.purchaseNumber}</strong> is placed.
            Total to pay: <strong>{formatMoney(placed.totalAmount)}</strong>.
          </p>
        )}
        <div style={{ maxWidth: '28rem' }}>
          <MpesaPayment
            purchaseNumber={placed.purchaseNumber}
            amount={placed.booking ? placed.booking.deposit : placed.totalAmount}
            defaultPhone={placed.phoneNumber}
            onPaid={onPaid}
          />
          <p className="muted">
            <button type="button" className="btn btn-outline btn-sm" onClick={payLater}>
              {placed.booking ? 'Pay the deposit later' : 'Pay on delivery instead'}
            </button>
          </p>
        </div>
      </div>
    );
  }

  if (placed) {
    return (
      <div className="page center">
        <Steps current={2} labels={CHECKOUT_STEPS} />
        <h1>Thank you for your order</h1>
        <p>
          Your confirmation number is{' '}
          <strong data-testid="purchase-number">{placed.purchaseNumber}</strong>
        </p>
        {placed.paidMessage && (
          <p role="status" data-testid="payment-status">
            {placed.paidMessage}
          </p>
        )}
        {placed.booking && (
          <p data-testid="booking-summary">
            {placed.paidMessage
              ? `Deposit paid: ${formatMoney(placed.booking.deposit)}.`
              : `Your booking waits for its deposit of ${formatMoney(placed.booking.deposit)}: pay it by M-Pesa paybill with ${placed.purchaseNumber} as the account, or from your order page. An unpaid deposit expires.`}{' '}
            Balance when ready ({readyDay(placed.booking.readyOn)}):{' '}
            {formatMoney(placed.booking.balance)}.
          </p>
        )}
        {placed.paidMessage && (
          <p>
            <Link to={paths.shop}>Continue shopping</Link>
          </p>
        )}
        <p>
          <a href={placed.whatsappUrl} target="_blank" rel="noreferrer">
            Send the order on WhatsApp
          </a>
        </p>
      </div>
    );
  }

  const sending = placeOrder.isPending;
  const county = countyValue ?? '';
  const subCounty = subCountyValue ?? '';

  return (
    <div className="page">
      <Steps current={1} labels={CHECKOUT_STEPS} />
      <h1>Checkout</h1>
      <div className="checkout">
        <form
          onSubmit={(e) => void handleSubmit(submit)(e)}
          onFocus={() => void loadRules().catch(() => undefined)}
          noValidate
          aria-label="Delivery details"
        >
          <h2>Delivery details</h2>
          <Field
            label="Full name"
            autoComplete="name"
            error={errors.fullName?.message}
            {...register('fullName')}
          />
          <Field
            label="Phone number (area code and number)"
            type="tel"
            autoComplete="tel"
            placeholder="+254 712 345 678"
            error={errors.phoneNumber?.message}
            {...register('phoneNumber')}
          />
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <LocationSelects
            county={county}
            subCounty={subCounty}
            register={register}
            setValue={setValue}
            countyError={errors.county?.message}
          />
          <Field
            label="Street address (nearest town, include sub-county)"
            autoComplete="street-address"
            error={errors.streetAddress?.message}
            {...register('streetAddress')}
          />

          <Field
            label="KRA PIN (for a tax invoice in your name)"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="Optional, e.g. A012345678Z"
            error={errors.kraPin?.message}
            {...register('kraPin')}
          />

          <DeliveryOptions
            county={county}
            query={deliveryOptions}
            method={deliveryMethod}
            onChange={setDeliveryMethod}
          />

          <fieldset className="payment">
            <legend>Payment</legend>
            {mpesaExpress && (
              <label className="check">
                <input
                  type="radio"
                  name="payment"
                  checked={payment === 'mpesa-express'}
                  onChange={() => setPayment('mpesa-express')}
                />
                Pay with M-Pesa
              </label>
            )}
            {!bookingDay && (
              <label className="check">
                <input
                  type="radio"
                  name="payment"
                  checked={payment === 'delivery'}
                  onChange={() => setPayment('delivery')}
                />
                Pay on delivery
              </label>
            )}
            <label className="check">
              <input
                type="radio"
                name="payment"
                checked={payment === 'paybill'}
                onChange={() => setPayment('paybill')}
              />
              M-Pesa paybill
            </label>
            {bookingDay ? (
              <p className="muted">
                A booking is held once its deposit is paid:{' '}
                {payingByPrompt
                  ? 'once it is placed, we send an M-Pesa prompt for the deposit to your phone.'
                  : 'pay the deposit through M-Pesa paybill with your confirmation number as the account number.'}{' '}
                The balance is due when the seedlings are ready.
              </p>
            ) : payingByPrompt ? (
              <p className="muted">
                Once the order is placed, we send an M-Pesa prompt to your phone: enter your PIN and
                the order is paid.
              </p>
            ) : payment === 'paybill' ? (
              <p className="muted">
                Pay through M-Pesa paybill using your confirmation number as the account number; our
                team confirms the payment.
              </p>
            ) : (
              <p className="muted">Pay in cash or M-Pesa when your seedlings are delivered.</p>
            )}
          </fieldset>

          {otherLines > 0 && (
            <p className="notice" role="note">
              {bookingDay
                ? 'This order is the booking below alone: the rest of your cart stays for its own checkout.'
                : 'This order is your ready-now seedlings: the bookings in your cart stay for their own checkout.'}
            </p>
          )}
          {!online && (
            <p className="notice" role="status">
              {OFFLINE_ORDER}
            </p>
          )}
          <button
            type="submit"
            className="btn btn-block"
            disabled={
              !isValid ||
              sending ||
              items.length === 0 ||
              !online ||
              !chosenDelivery ||
              deliveryOptions.isPlaceholderData
            }
          >
            {sending ? 'Placing Order...' : 'PLACE ORDER'}
          </button>
          <p className="small muted">
            We use your details to deliver this order and text you about it:{' '}
            <Link to={paths.privacy}>privacy notice</Link>.
          </p>
        </form>

        <aside className="summary" aria-labelledby="my-order">
          <div className="summary-head">
            <h2 id="my-order">{bookingDay ? 'My Booking' : 'My Order'}</h2>
            <Link to={paths.cart} className="btn btn-outline btn-sm">
              Edit
            </Link>
          </div>
          {items.length === 0 ? (
            <p className="state">{STOREFRONT_MESSAGES.cartEmpty}</p>
          ) : (
            <ul className="cart-lines">
              {items.map((i) => (
                <li key={cartKey(i)} className="cart-line">
                  <ProductImage
                    src={i.productImage}
                    images={i.productImages}
                    alt={i.productName}
                    width={56}
                    height={56}
                    sizes="56px"
                  />
                  <div className="cart-line-body">
                    <strong>{i.productName}</strong>
                    {i.productDescription && (
                      <span className="muted small">{i.productDescription}</span>
                    )}
                    <LineUnit item={i} list={list} />
                    <span className="muted">Qty {i.quantity}</span>
                  </div>
                  <span className="line-price">{formatMoney(lineTotal(i, list))}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="subtotal">
            <span>Cart Subtotal</span> <strong>{formatMoney(total)}</strong>
          </p>
          <p className="subtotal">
            <span>Shipping</span>{' '}
            <strong data-testid="shipping-fee">
              {chosenDelivery ? formatMoney(chosenDelivery.fee) : 'Choose your county'}
            </strong>
          </p>
          <p className="subtotal total">
            <span>Total</span>{' '}
            <strong data-testid="order-total">
              {formatMoney(total + (chosenDelivery?.fee ?? 0))}
            </strong>
          </p>
          {bookingDay && (
            <BookingSplit
              total={total + (chosenDelivery?.fee ?? 0)}
              percent={settings.data?.depositPercent}
              unknown={settings.isError}
              readyOn={bookingDay}
            />
          )}
        </aside>
      </div>
    </div>
  );
}

/**
 * What a booking costs now and later: "Deposit now: KES X (30 %)", "Balance when ready (12 March):
 * KES Y". The server computes both again on placing, the same way.
 */
function BookingSplit({
  total,
  percent,
  unknown,
  readyOn,
}: {
  total: number;
  /** The shop's deposit share; undefined while its settings load. */
  percent: number | undefined;
  /** The settings could not be read: the amounts come with the placed booking. */
  unknown: boolean;
  readyOn: string;
}) {
  const deposit = percent === undefined ? undefined : bookingDeposit(total, percent);
  const pending = unknown ? 'shown once placed' : '…';
  return (
    <>
      <p className="subtotal">
        <span>Deposit now:</span>{' '}
        <strong data-testid="deposit-now">
          {deposit === undefined ? pending : `${formatMoney(deposit)} (${percent} %)`}
        </strong>
      </p>
      <p className="subtotal">
        <span>Balance when ready ({readyDay(readyOn)}):</span>{' '}
        <strong data-testid="balance-later">
          {deposit === undefined ? pending : formatMoney(total - deposit)}
        </strong>
      </p>
    </>
  );
}
