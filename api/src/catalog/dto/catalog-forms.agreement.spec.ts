/**
 * The back office validates with shared-contracts' zod schemas, the API with these DTOs: fed the
 * same samples, both must accept or both refuse, and with the same words.
 */
import { BadRequestException } from '@nestjs/common';
import {
  applyOfferPayloadSchema,
  categoryFormSchema,
  productFormSchema,
  updateStockPayloadSchema,
} from '@spc/shared-contracts';
import type { ZodType } from 'zod';
import { createValidationPipe } from '../../common/validation';
import { CreateCategoryDto } from './category.dto';
import { ApplyOfferDto, CreateProductDto, UpdateStockDto } from './product.dto';

const pipe = createValidationPipe();

/** Undefined when the DTO accepts the sample, else every message it gives. */
async function dtoProblems(
  metatype: new () => object,
  sample: object,
): Promise<string[] | undefined> {
  try {
    await pipe.transform({ ...sample }, { type: 'body', metatype });
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

const category = '665f1c2b9d3e4a0012345678';
const product = {
  productName: 'Hass Avocado Grafted Seedling',
  productDescription: 'Grafted on a hardy rootstock',
  price: '350',
  initialPrice: '350',
  productQuantity: '40',
  category,
  onOffer: 'false',
};

describe('product form: zod and the DTO agree', () => {
  it.each([
    product,
    { ...product, price: 350, productQuantity: 0, onOffer: false },
    { ...product, onOffer: 'true', offerPrice: '300' },
    { ...product, onOffer: true, offerPrice: 349 },
    { ...product, onOffer: 'false', offerPrice: 'not used' },
    { ...product, onOffer: undefined },
    { ...product, price: ' 350 ', category: category.toUpperCase() },
    { ...product, taxType: 'E', itemClassCode: '5059690800' },
    { ...product, taxType: '', itemClassCode: '' },
    { ...product, taxType: 'A', itemClassCode: '14111400' },
  ])('both accept %j', (sample) => expectAgreement(productFormSchema, CreateProductDto, sample));

  it.each([
    {},
    { ...product, productName: '' },
    { ...product, productName: '   ' },
    { ...product, productName: 'x'.repeat(121) },
    { ...product, productDescription: undefined },
    { ...product, price: '' },
    { ...product, price: 'abc' },
    { ...product, price: '12.5' },
    { ...product, price: '0' },
    { ...product, price: -5 },
    { ...product, price: '1e3' },
    { ...product, price: '99999999' },
    { ...product, productQuantity: undefined },
    { ...product, productQuantity: 'ten' },
    { ...product, productQuantity: '-1' },
    { ...product, category: '' },
    { ...product, category: 'fruits' },
    { ...product, onOffer: 'yes' },
    { ...product, onOffer: 'true' },
    { ...product, onOffer: 'true', offerPrice: '' },
    { ...product, onOffer: 'true', offerPrice: 'cheap' },
    { ...product, onOffer: 'true', offerPrice: '0' },
    { ...product, onOffer: 'true', offerPrice: '350' },
    { ...product, onOffer: true, offerPrice: 400 },
    { ...product, onOffer: 'true', offerPrice: '99.5' },
    { ...product, taxType: 'F' },
    { ...product, taxType: 'b' },
    { ...product, taxType: ' B' },
    { ...product, taxType: 16 },
    { ...product, itemClassCode: '123456789' },
    { ...product, itemClassCode: ' 14111400' },
    { ...product, itemClassCode: '14111400a' },
  ])('both refuse %j', (sample) => expectAgreement(productFormSchema, CreateProductDto, sample));
});

describe('offer, stock and category forms: zod and the DTOs agree', () => {
  it.each([{ offerPrice: 300 }, { offerPrice: '300' }, {}, { offerPrice: 0 }, { offerPrice: 'x' }])(
    'offer %j',
    (sample) => expectAgreement(applyOfferPayloadSchema, ApplyOfferDto, sample),
  );

  it.each([
    { productQuantity: 25 },
    { productQuantity: '25' },
    {},
    { productQuantity: 0 },
    { productQuantity: -3 },
    { productQuantity: 2.5 },
  ])('stock %j', (sample) => expectAgreement(updateStockPayloadSchema, UpdateStockDto, sample));

  it.each([
    { name: 'Fruits', description: 'Grafted trees' },
    { name: '  Fruits ', description: ' Grafted trees ' },
    { name: '', description: 'x' },
    { name: 'Fruits' },
    { name: 'x'.repeat(61), description: 'x' },
    { name: 'Fruits', description: 'x'.repeat(501) },
    { name: 42, description: 'x' },
  ])('category %j', (sample) => expectAgreement(categoryFormSchema, CreateCategoryDto, sample));
});
