import {
  applyOfferPayloadSchema,
  categoryFormSchema,
  offerFormSchema,
  productFormSchema,
  readNumberInput,
  updateStockPayloadSchema,
} from './catalog-forms';

const categoryId = '665f1c2b9d3e4a0012345678';
const goodProduct = {
  productName: 'Hass Avocado Grafted Seedling',
  productDescription: 'Grafted on a hardy rootstock; fruits in 3 years.',
  price: 350,
  productQuantity: 40,
  category: categoryId,
  onOffer: false,
};

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe('product form', () => {
  it('accepts the form values and the multipart texts alike', () => {
    expect(productFormSchema.parse(goodProduct)).toEqual({ ...goodProduct, offerPrice: 0 });
    expect(
      productFormSchema.parse({
        ...goodProduct,
        price: '350',
        initialPrice: '350',
        productQuantity: ' 40 ',
        onOffer: 'true',
        offerPrice: '300',
      }),
    ).toEqual({ ...goodProduct, onOffer: true, offerPrice: 300 });
  });

  it.each([
    [{ productName: '  ' }, 'Product Name is required'],
    [{ productDescription: '' }, 'Description is required'],
    [{ price: '' }, 'Price is required'],
    [{ price: 'abc' }, 'Price must be a number'],
    [{ price: 12.5 }, 'Price must be a whole number of shillings'],
    [{ price: 0 }, 'Price must be more than 0'],
    [{ productQuantity: undefined }, 'Quantity is required'],
    [{ productQuantity: 'ten' }, 'Quantity must be a number'],
    [{ productQuantity: -1 }, 'Quantity cannot be negative'],
    [{ category: '' }, 'Category is required'],
    [{ category: 'vegetables' }, 'Category is not a valid id'],
    [{ onOffer: true }, 'Offer Price is required'],
    [{ onOffer: true, offerPrice: 'x' }, 'Offer Price must be a number'],
    [{ onOffer: true, offerPrice: 350 }, 'Offer Price must be less than the price'],
    [{ onOffer: 'yes' }, 'onOffer must be true or false'],
  ])('refuses %j with "%s"', (change, message) => {
    expect(firstMessage(productFormSchema.safeParse({ ...goodProduct, ...change }))).toBe(message);
  });

  it('ignores the offer price when the product is not on offer', () => {
    expect(productFormSchema.parse({ ...goodProduct, offerPrice: 'anything' }).offerPrice).toBe(0);
  });
});

describe('offer, stock and category forms', () => {
  it('uses the offer modal message and checks the price the modal knows', () => {
    expect(firstMessage(applyOfferPayloadSchema.safeParse({}))).toBe('offerPrice is required');
    expect(firstMessage(offerFormSchema(300).safeParse({ offerPrice: 300 }))).toBe(
      'Offer Price must be less than the price',
    );
    expect(offerFormSchema(300).parse({ offerPrice: '250' })).toEqual({ offerPrice: 250 });
  });

  it('wants a stock count above zero', () => {
    expect(firstMessage(updateStockPayloadSchema.safeParse({ productQuantity: 0 }))).toBe(
      'Quantity must be more than 0',
    );
    expect(updateStockPayloadSchema.parse({ productQuantity: '12' })).toEqual({
      productQuantity: 12,
    });
  });

  it('requires a category name and description', () => {
    expect(firstMessage(categoryFormSchema.safeParse({ name: ' ', description: 'x' }))).toBe(
      'Category is required',
    );
    expect(firstMessage(categoryFormSchema.safeParse({ name: 'Fruits' }))).toBe(
      'Description is required',
    );
  });
});

describe('readNumberInput', () => {
  it.each([
    [undefined, undefined],
    ['  ', undefined],
    ['12', 12],
    ['-3', -3],
    ['1.5', 1.5],
  ])('reads %j as %j', (input, expected) => {
    expect(readNumberInput(input)).toBe(expected);
  });

  it.each(['12abc', '0x10', '1e3', true, {}])('reads %j as not a number', (input) => {
    expect(readNumberInput(input)).toBeNaN();
  });
});
