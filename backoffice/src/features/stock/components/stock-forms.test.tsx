import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { LossForm } from './stock-forms';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('Record a loss', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('clears the quantity and the note after the loss is recorded, so a second click records nothing twice', async () => {
    const calls: unknown[] = [];
    jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST') {
        calls.push(await request.json());
        return json(201, { success: true, message: 'Loss recorded' });
      }
      return json(200, { success: true, message: 'ok' });
    });
    renderWithProviders(<LossForm productId="a1" />);
    const form = screen.getByRole('region', { name: 'Record a loss' });
    const quantity = within(form).getByLabelText('Seedlings lost');
    fireEvent.change(quantity, { target: { value: '4' } });
    fireEvent.change(within(form).getByLabelText('Note'), { target: { value: 'frost' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Record loss' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ quantity: 4, note: 'frost' });
    await waitFor(() => expect(quantity).toHaveValue(''));
    expect(within(form).getByLabelText('Note')).toHaveValue('');

    fireEvent.click(within(form).getByRole('button', { name: 'Record loss' }));
    await waitFor(() => expect(quantity).toHaveAttribute('aria-invalid', 'true'));
    expect(calls).toHaveLength(1);
  });
});
