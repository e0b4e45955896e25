/**
 * The storefront's checkout form and the back office's payment form validate with zod schemas from
 * shared-contracts; the API with these DTOs. The same samples must pass or fail both.
 */
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { checkoutFormSchema, KRA_PIN_MESSAGE, paymentFormSchema } from '@spc/shared-contracts';
import { CompletePaymentDto, CreateOrderDto, DeliveryInfoDto } from './order.dto';

function messages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => [
    ...(e.constraints ? Object.values(e.constraints) : []),
    ...messages(e.children ?? []),
  ]);
}

async function api(dto: new () => object, sample: object) {
  const errors = await validate(plainToInstance(dto, sample), {
    whitelist: true,
    forbidNonWhitelisted: true,
  });
  return { ok: errors.length === 0, messages: messages(errors) };
}

const checkout = {
  fullName: 'Achieng Otieno',
  phoneNumber: '0722000111',
  email: 'achieng@example.co.ke',
  county: 'Kiambu',
  subCounty: 'Ruiru',
  ward: 'Gitothua',
  streetAddress: 'Kamakis',
};

describe('checkout form and DeliveryInfoDto agree', () => {
  it.each([
    ['a full form', checkout],
    ['no sub-county or ward', { ...checkout, subCounty: undefined, ward: undefined }],
    ['a 13-character phone', { ...checkout, phoneNumber: '+254722000111' }],
  ])('both accept %s', async (_, sample) => {
    expect(checkoutFormSchema.safeParse(sample).success).toBe(true);
    expect(await api(DeliveryInfoDto, sample)).toEqual({ ok: true, messages: [] });
  });

  it.each([
    ['Full Name is required', { ...checkout, fullName: '' }],
    ['Phone number is required', { ...checkout, phoneNumber: '' }],
    ['Invalid phone number format', { ...checkout, phoneNumber: '+2547220001112' }],
    ['Email is required', { ...checkout, email: '' }],
    ['Invalid email format', { ...checkout, email: 'achieng@' }],
    ['County is required', { ...checkout, county: '' }],
    ['Street Address is required', { ...checkout, streetAddress: '  ' }],
  ])('both refuse with "%s"', async (message, sample) => {
    const zod = checkoutFormSchema.safeParse(sample);
    expect(zod.success).toBe(false);
    expect(zod.error!.issues[0]!.message).toBe(message);
    const dto = await api(DeliveryInfoDto, sample);
    expect(dto.ok).toBe(false);
    expect(dto.messages).toContain(message);
  });
});

describe("the checkout's KRA PIN and CreateOrderDto agree", () => {
  const order = (kraPin: unknown) => ({
    products: [{ _id: '665f1c2b9d3e4a0012345679', quantity: 1 }],
    kraPin,
  });
  const form = (kraPin: string) => {
    const { subCounty: _s, ward: _w, ...rest } = checkout;
    return { ...rest, kraPin };
  };

  it.each([
    ['P051234567X', 'P051234567X'],
    ['  a012345678z ', 'A012345678Z'],
    ['', ''],
    ['   ', ''],
  ])('both take %j as %j', async (typed, stored) => {
    const zod = checkoutFormSchema.safeParse(form(typed));
    expect(zod.success && zod.data.kraPin).toBe(stored);
    const dto = plainToInstance(CreateOrderDto, order(typed));
    expect(dto.kraPin).toBe(stored);
    expect(await api(CreateOrderDto, order(typed))).toEqual({ ok: true, messages: [] });
  });

  it.each([
    'P05123456X', // 8 digits
    'P0512345678X', // 10 digits
    'B051234567X', // neither A nor P
    'P051234567', // no closing letter
    'P 051234567X', // a blank inside
    'P051234567XX',
  ])("both refuse %j with the organisations' message", async (typed) => {
    const zod = checkoutFormSchema.safeParse(form(typed));
    expect(zod.success).toBe(false);
    expect(zod.error!.issues.map((i) => i.message)).toEqual([KRA_PIN_MESSAGE]);
    expect(await api(CreateOrderDto, order(typed))).toEqual({
      ok: false,
      messages: [KRA_PIN_MESSAGE],
    });
  });

  it('the API also refuses what is not text, and takes null as left out', async () => {
    expect(await api(CreateOrderDto, order(51234567))).toEqual({
      ok: false,
      messages: [KRA_PIN_MESSAGE, KRA_PIN_MESSAGE],
    });
    expect((await api(CreateOrderDto, order(null))).ok).toBe(true);
  });
});

describe('payment form and CompletePaymentDto agree', () => {
  const form = (v: {
    paymentMethod?: string;
    amount?: number;
    transactionCode?: string;
    timePaid?: string;
  }) => v;
  const body = (v: {
    paymentMethod?: string;
    amount?: number;
    transactionCode?: string;
    timePaid?: string;
  }) => ({
    paymentMethod: v.paymentMethod,
    paymentDetails: { amount: v.amount, transactionCode: v.transactionCode, timePaid: v.timePaid },
  });

  it.each([
    ['cash', { paymentMethod: 'Cash', amount: 2400 }],
    [
      'mpesa with code and time',
      {
        paymentMethod: 'Mpesa',
        amount: 2400,
        transactionCode: 'SGH7K2LP9Q',
        timePaid: '2026-11-22T08:30:00.000Z',
      },
    ],
  ])('both accept %s', async (_, sample) => {
    expect(paymentFormSchema.safeParse(form(sample)).success).toBe(true);
    expect((await api(CompletePaymentDto, body(sample))).ok).toBe(true);
  });

  it.each([
    ['Payment method is required', { amount: 2400 }],
    ['Payment method is required', { paymentMethod: 'Cheque', amount: 2400 }],
    ['Amount is required', { paymentMethod: 'Cash' }],
  ])('both refuse with "%s"', async (message, sample) => {
    const zod = paymentFormSchema.safeParse(form(sample));
    expect(zod.success).toBe(false);
    expect(zod.error!.issues.map((i) => i.message)).toContain(message);
    const dto = await api(CompletePaymentDto, body(sample));
    expect(dto.ok).toBe(false);
    expect(dto.messages).toContain(message);
  });

  it('asks for the code and time only for Mpesa (the API checks them in the service, with the same messages)', () => {
    const zod = paymentFormSchema.safeParse({ paymentMethod: 'Mpesa', amount: 2400 });
    expect(zod.error!.issues.map((i) => i.message)).toEqual([
      'Transaction code is required',
      'Time paid is required',
    ]);
    expect(paymentFormSchema.safeParse({ paymentMethod: 'Cash', amount: 2400 }).success).toBe(true);
  });
});
