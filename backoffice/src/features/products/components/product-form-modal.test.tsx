import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { imageProblem, IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE } from '../../../lib/image-check';
import { ProductFormModal } from './product-form-modal';

const categories = [{ _id: '6650f0c2a1b2c3d4e5f6000a', name: 'Vegetables' }];

function setup() {
  signInAs('staff');
  renderWithProviders(
    <ProductFormModal opened onClose={() => undefined} categories={categories} />,
  );
}

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
