import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TAX_MESSAGES, type TaxType } from '@spc/shared-contracts';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { createProduct, createProductTax } from '../../../testing/factories';
import { imageProblem, IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE } from '../../../lib/image-check';
import type { Product } from '../api/get-products';
import { PRODUCT_TAX_LOAD_ERROR, ProductFormModal } from './product-form-modal';

const categories = [{ _id: '6650f0c2a1b2c3d4e5f6000a', name: 'Vegetables' }];

function setup(options: { product?: Product; shopDefaultTaxType?: TaxType | null } = {}) {
  signInAs('staff');
  renderWithProviders(
    <ProductFormModal
      opened
      onClose={() => undefined}
      categories={categories}
      product={options.product}
      shopDefaultTaxType={options.shopDefaultTaxType}
    />,
  );
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** The requests fetch was called with, in order. */
const sent = (fetchMock: jest.SpyInstance) =>
  fetchMock.mock.calls.map(([input]) => input as Request);

function fillValid() {
  fireEvent.change(screen.getByLabelText('Product Name'), { target: { value: 'Kale Tray' } });
  fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Sukuma wiki' } });
  fireEvent.change(screen.getByLabelText('Price (KSH)'), { target: { value: '450' } });
  fireEvent.change(screen.getByLabelText('Quantity'), { target: { value: '12' } });
  fireEvent.change(screen.getByLabelText('Category'), { target: { value: categories[0]!._id } });
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));

describe('product form', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the spec messages for an empty form', async () => {
    setup();
    submit();
    expect(await screen.findByText('Product Name is required')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(screen.getByText('Price is required')).toBeInTheDocument();
    expect(screen.getByText('Quantity is required')).toBeInTheDocument();
    expect(screen.getByText('Category is required')).toBeInTheDocument();
  });

  it('reveals the offer price only when the product is on offer, and then requires it', async () => {
    setup();
    expect(screen.queryByLabelText('Offer Price (KSH)')).not.toBeInTheDocument();
    fillValid();
    fireEvent.click(screen.getByLabelText('On offer'));
    expect(screen.getByLabelText('Offer Price (KSH)')).toBeInTheDocument();
    submit();
    expect(await screen.findByText('Offer Price is required')).toBeInTheDocument();
  });

  it('sends a multipart form with initialPrice equal to the price', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ success: true, message: 'Product created', product: {} }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    setup();
    fillValid();
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.method).toBe('POST');
    const form = await request.formData();
    expect(form.get('productName')).toBe('Kale Tray');
    expect(form.get('price')).toBe('450');
    expect(form.get('initialPrice')).toBe('450');
    expect(form.get('onOffer')).toBe('false');
    expect(await screen.findByText('Product created')).toBeInTheDocument();
  });
});

describe('sale units in the product form', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the API rules as the clerk types, and sends a tray of 104 with two tiers', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ success: true, message: 'Product created', product: {} }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    setup();
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Add unit' }));
    const tray = within(screen.getByRole('group', { name: 'Unit 2' }));
    fireEvent.change(tray.getByLabelText('Unit name'), { target: { value: 'Tray of 104' } });
    fireEvent.change(tray.getByLabelText('Seedlings per unit'), { target: { value: '0' } });
    expect(await tray.findByText('A unit must hold at least 1 seedling')).toBeInTheDocument();
    fireEvent.change(tray.getByLabelText('Seedlings per unit'), { target: { value: '104' } });
    fireEvent.change(tray.getByLabelText('Unit price (KSH)'), { target: { value: '2600' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add tier to unit 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add tier to unit 2' }));
    fireEvent.change(tray.getByLabelText('Tier 1: from (units)'), { target: { value: '10' } });
    fireEvent.change(tray.getByLabelText('Tier 1: price each (KSH)'), {
      target: { value: '2400' },
    });
    fireEvent.change(tray.getByLabelText('Tier 2: from (units)'), { target: { value: '10' } });
    fireEvent.change(tray.getByLabelText('Tier 2: price each (KSH)'), {
      target: { value: '2200' },
    });
    expect(
      await tray.findByText('Two tiers start at the same quantity: they overlap'),
    ).toBeInTheDocument();
    submit();
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(tray.getByLabelText('Tier 2: from (units)'), { target: { value: '50' } });
    await waitFor(() =>
      expect(tray.queryByText('Two tiers start at the same quantity: they overlap')).toBeNull(),
    );
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const form = await (fetchMock.mock.calls[0]![0] as Request).formData();
    expect(JSON.parse(String(form.get('units')))).toEqual([
      expect.objectContaining({ name: 'Single seedling', seedlings: 1 }),
      expect.objectContaining({
        name: 'Tray of 104',
        seedlings: 104,
        price: 2600,
        tiers: [
          { minQuantity: 10, price: 2400 },
          { minQuantity: 50, price: 2200 },
        ],
      }),
    ]);
  });
});

describe('tax in the product form', () => {
  afterEach(() => jest.restoreAllMocks());

  it("names the shop's default, and sends the tax type, the classification and a unit's own type", async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(json({ success: true, message: 'Product created', product: {} }, 201));
    setup({ shopDefaultTaxType: 'B' });
    const select = screen.getByLabelText('Tax type (KRA eTIMS)') as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(
      within(select).getByRole('option', { name: 'Shop default (B · Standard rate 16 %)' }),
    ).toBeInTheDocument();
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Shop default (B · Standard rate 16 %)',
      'A · Exempt',
      'B · Standard rate 16 %',
      'C · Zero-rated 0 %',
      'D · Non-VAT',
      'E · Reduced rate 8 %',
    ]);
    fillValid();
    fireEvent.change(select, { target: { value: 'E' } });
    fireEvent.change(screen.getByLabelText('Item classification code (KRA)'), {
      target: { value: '5059690800' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add unit' }));
    const tray = within(screen.getByRole('group', { name: 'Unit 2' }));
    // A unit without its own type follows the product's, as chosen above.
    expect(
      tray.getByRole('option', { name: "Product's (E · Reduced rate 8 %)" }),
    ).toBeInTheDocument();
    fireEvent.change(tray.getByLabelText('Unit name'), { target: { value: 'Tray of 50' } });
    fireEvent.change(tray.getByLabelText('Seedlings per unit'), { target: { value: '50' } });
    fireEvent.change(tray.getByLabelText('Unit price (KSH)'), { target: { value: '1500' } });
    fireEvent.change(tray.getByLabelText('Unit tax type'), { target: { value: 'A' } });
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const form = await sent(fetchMock)[0]!.formData();
    expect(form.get('taxType')).toBe('E');
    expect(form.get('itemClassCode')).toBe('5059690800');
    const units = JSON.parse(String(form.get('units')));
    expect(units[0]).not.toHaveProperty('taxType');
    expect(units[1]).toMatchObject({ name: 'Tray of 50', taxType: 'A' });
  });

  it('sends the shop default as an empty tax type', async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(json({ success: true, message: 'Product created', product: {} }, 201));
    setup({ shopDefaultTaxType: 'B' });
    fillValid();
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const form = await sent(fetchMock)[0]!.formData();
    expect(form.get('taxType')).toBe('');
    expect(form.get('itemClassCode')).toBe('');
  });

  it('says a code of the wrong form, and a missing type when the shop has no default, sending nothing', async () => {
    const fetchMock = jest.spyOn(global, 'fetch');
    setup({ shopDefaultTaxType: null });
    expect(screen.getByRole('option', { name: 'Shop default (none set)' })).toBeInTheDocument();
    fillValid();
    fireEvent.change(screen.getByLabelText('Item classification code (KRA)'), {
      target: { value: '12345' },
    });
    submit();
    expect(await screen.findByText(TAX_MESSAGES.itemClassCode)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Item classification code (KRA)'), {
      target: { value: '14111400' },
    });
    submit();
    expect(await screen.findByText(TAX_MESSAGES.noDefault)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the API's message when it refuses the product", async () => {
    jest.spyOn(global, 'fetch').mockResolvedValue(
      json(
        {
          success: false,
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: TAX_MESSAGES.noDefault,
          errors: [{ field: 'taxType', messages: [TAX_MESSAGES.noDefault] }],
        },
        400,
      ),
    );
    setup({ shopDefaultTaxType: 'B' });
    fillValid();
    submit();
    expect(await screen.findByText(TAX_MESSAGES.noDefault)).toBeInTheDocument();
  });

  it("loads an existing product's tax first, then shows its type, code and each unit's own", async () => {
    const product = createProduct();
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'GET')
        return json({
          success: true,
          message: 'Product tax retrieved',
          tax: createProductTax(product),
        });
      return json({ success: true, message: 'Product updated successfully', product });
    });
    setup({ product, shopDefaultTaxType: 'B' });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    const select = (await screen.findByLabelText('Tax type (KRA eTIMS)')) as HTMLSelectElement;
    expect(new URL(sent(fetchMock)[0]!.url).pathname).toBe(`/api/products/${product._id}/tax`);
    await waitFor(() => expect(select.value).toBe('E'));
    expect(
      (screen.getByLabelText('Item classification code (KRA)') as HTMLInputElement).value,
    ).toBe('5059690800');
    const units = screen.getAllByLabelText('Unit tax type') as HTMLSelectElement[];
    expect(units.map((u) => u.value)).toEqual(['', 'A']);

    // Back to the shop's default, the tray's own type kept.
    fireEvent.change(select, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Product' }));
    const update = await waitFor(() => {
      const put = sent(fetchMock).find((r) => r.method === 'PUT');
      expect(put).toBeDefined();
      return put!;
    });
    expect(new URL(update.url).pathname).toBe(`/api/products/update/${product._id}`);
    const form = await update.formData();
    expect(form.get('taxType')).toBe('');
    expect(form.get('itemClassCode')).toBe('5059690800');
    expect(JSON.parse(String(form.get('units')))[1]).toMatchObject({
      _id: product.units[1]!._id,
      taxType: 'A',
    });
  });

  it("says when an existing product's tax cannot be loaded, and tries again", async () => {
    const product = createProduct();
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValueOnce(
        json({ success: false, statusCode: 500, code: 'INTERNAL_ERROR', message: 'x' }, 500),
      )
      .mockResolvedValue(
        json({ success: true, message: 'Product tax retrieved', tax: createProductTax(product) }),
      );
    setup({ product, shopDefaultTaxType: 'B' });
    expect(await screen.findByText(PRODUCT_TAX_LOAD_ERROR)).toBeInTheDocument();
    expect(screen.queryByLabelText('Tax type (KRA eTIMS)')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Tax type (KRA eTIMS)')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('image check', () => {
  const file = (type: string, size: number) =>
    new File([new Uint8Array(size)], 'seedling', { type });

  it('accepts JPEG, PNG and WebP up to 5 MB', () => {
    expect(imageProblem(file('image/jpeg', 1000))).toBeUndefined();
    expect(imageProblem(file('image/webp', 5 * 1024 * 1024))).toBeUndefined();
  });

  it('refuses other types and larger files', () => {
    expect(imageProblem(file('image/gif', 1000))).toBe(IMAGE_TYPE_MESSAGE);
    expect(imageProblem(file('image/png', 5 * 1024 * 1024 + 1))).toBe(IMAGE_SIZE_MESSAGE);
  });
});
