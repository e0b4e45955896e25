/**
 * The apps will validate with shared-contracts' zod schemas, the API with these DTOs: fed the same
 * samples, both must accept or both refuse, and with the same words.
 */
import { BadRequestException } from '@nestjs/common';
import {
  organisationSignUpSchema,
  organisationTermsSchema,
  priceListSchema,
} from '@spc/shared-contracts';
import type { ZodType } from 'zod';
import { createValidationPipe } from '../../common/validation';
import { CreateOrganisationDto } from './organisation.dto';
import { OrganisationTermsDto, PriceListDto } from './organisation-terms.dto';

const pipe = createValidationPipe();

async function dtoProblems(
  metatype: new () => object,
  sample: object,
): Promise<string[] | undefined> {
  try {
    await pipe.transform(structuredClone(sample), { type: 'body', metatype });
    return undefined;
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    const body = error.getResponse() as { errors: { messages: string[] }[] };
    return body.errors.flatMap((e) => e.messages);
  }
}

async function expectAgreement(schema: ZodType, metatype: new () => object, sample: object) {
  const zod = schema.safeParse(sample);
  const dto = await dtoProblems(metatype, sample);
  expect({ sample, dtoAccepts: dto === undefined }).toEqual({ sample, dtoAccepts: zod.success });
  if (!zod.success) expect(dto).toContain(zod.error.issues[0]!.message);
}

const contact = { name: 'Grace Wambui', phone: '0712345678', email: 'grace@example.co.ke' };
const signUp = {
  name: 'Kiambu County Government',
  kraPin: 'P051234567X',
  kind: 'county',
  billingContact: contact,
  deliveryContact: contact,
};

describe('organisation sign-up: zod and the DTO agree', () => {
  it.each([
    signUp,
    { ...signUp, kraPin: ' p051234567x ' },
    { ...signUp, kraPin: 'P051 234567X' },
    { ...signUp, kraPin: 'P05123456X' },
    { ...signUp, kraPin: 'P0512345678X' },
    { ...signUp, kraPin: 'C051234567X' },
    { ...signUp, kind: 'ministry' },
    { ...signUp, name: '' },
    { ...signUp, billingContact: { ...contact, phone: '12' } },
    { ...signUp, billingContact: { ...contact, phone: '+254 712 345 678' } },
    { ...signUp, deliveryContact: { ...contact, email: 'grace' } },
    { ...signUp, deliveryContact: { ...contact, name: ' ' } },
  ])('%#', (sample) => expectAgreement(organisationSignUpSchema, CreateOrganisationDto, sample));
});

describe('terms and price list: zod and the DTOs agree', () => {
  const terms = { paymentDays: 30, creditLimit: 250_000, onAccount: true };
  it.each([
    terms,
    { ...terms, paymentDays: -1 },
    { ...terms, paymentDays: 181 },
    { ...terms, creditLimit: 10.5 },
    { ...terms, onAccount: 'true' },
    { ...terms, invoicing: 'wholeOrder' },
    { ...terms, invoicing: 'perTranche' },
    { ...terms, invoicing: 'monthly' },
  ])('terms %#', (sample) =>
    expectAgreement(organisationTermsSchema, OrganisationTermsDto, sample),
  );

  const entry = {
    productId: '665f1c2b9d3e4a0012345678',
    unitId: '665f1c2b9d3e4a0012345679',
    price: 90,
  };
  it.each([
    { discountPercent: 10, prices: [entry] },
    { discountPercent: 0, prices: [{ ...entry, price: -1 }] },
    { discountPercent: 0, prices: [{ ...entry, price: 1.5 }] },
    { discountPercent: 101, prices: [] },
    { discountPercent: 0, prices: [{ ...entry, unitId: 'tray' }] },
  ])('price list %#', (sample) => expectAgreement(priceListSchema, PriceListDto, sample));
});
