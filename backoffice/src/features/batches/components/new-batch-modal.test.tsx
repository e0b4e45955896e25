import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { NewBatchForm } from './new-batch-modal';

const products = [
  { value: 'p1', label: 'Avocado Hass' },
  { value: 'p2', label: 'Mango Apple' },
];

function setup(productId?: string) {
  const onSubmit = jest.fn();
  renderWithProviders(
    <NewBatchForm products={products} productId={productId} onSubmit={onSubmit} />,
  );
  return { onSubmit };
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create batch' }));

describe('new batch form', () => {
  it('says at once when the ready date is before the sowing date, and again when it is fixed', async () => {
    setup('p1');
    type('Sowing date', '2027-01-20');
    type('Ready date', '2027-01-10');
    expect(
      await screen.findByText('The ready date cannot be before the sowing date'),
    ).toBeInTheDocument();
    // Moving the sowing date back makes the ready date right: the message goes.
    type('Sowing date', '2027-01-05');
    await waitFor(() =>
      expect(
        screen.queryByText('The ready date cannot be before the sowing date'),
      ).not.toBeInTheDocument(),
    );
  });

  it('asks for the product, the dates and the seedlings started', async () => {
    const { onSubmit } = setup();
    submit();
    expect(await screen.findByText('Choose the product sown in this batch')).toBeInTheDocument();
    expect(screen.getByText('The sowing date is required')).toBeInTheDocument();
    expect(screen.getByText('The ready date is required')).toBeInTheDocument();
    expect(
      screen.getByText('Seedlings started must be a whole number from 1 to 1,000,000'),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses more than 1,000,000 seedlings', async () => {
    const { onSubmit } = setup('p1');
    type('Sowing date', '2027-01-05');
    type('Ready date', '2027-03-12');
    type('Seedlings started', '1000001');
    submit();
    expect(
      await screen.findByText('Seedlings started must be a whole number from 1 to 1,000,000'),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('starts with the product it was opened for and sends the batch', async () => {
    const { onSubmit } = setup('p2');
    expect(screen.getByLabelText('Product')).toHaveValue('p2');
    type('Sowing date', '2027-01-05');
    type('Ready date', '2027-03-12');
    type('Seedlings started', '500');
    type('Note', 'Shade house 2');
    submit();
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        productId: 'p2',
        sownOn: '2027-01-05',
        readyOn: '2027-03-12',
        started: 500,
        note: 'Shade house 2',
      }),
    );
  });
});
