import { fireEvent, screen, waitFor } from '@testing-library/react';
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
