import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { BatchLossForm, FailBatchModal, ReadyBatchModal } from './batch-forms';

describe('batch forms', () => {
  it('refuses a loss of more seedlings than the batch still holds', async () => {
    const onSubmit = jest.fn();
    renderWithProviders(<BatchLossForm left={120} booked={0} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Seedlings lost'), { target: { value: '121' } });
    expect(
      await screen.findByText('Only 120 seedlings are left in this batch'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Record loss' }));
    await waitFor(() => expect(onSubmit).not.toHaveBeenCalled());
  });

  it('warns that losing booked seedlings affects the latest bookings, and sends the loss', async () => {
    const onSubmit = jest.fn();
    renderWithProviders(<BatchLossForm left={100} booked={90} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Seedlings lost'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'Damping off' } });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'the latest bookings that no longer fit become Affected',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Record loss' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith(
        { quantity: 20, reason: 'died', note: 'Damping off' },
        expect.anything(),
      ),
    );
  });

  it('asks in sentence case before marking ready, in the plain colour', () => {
    const onConfirm = jest.fn();
    renderWithProviders(
      <ReadyBatchModal
        opened
        unbooked={380}
        bookings={3}
        onClose={jest.fn()}
        onConfirm={onConfirm}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Mark this batch ready?' });
    expect(dialog).toHaveTextContent('380 unbooked seedlings go into ready stock.');
    expect(dialog).toHaveTextContent('3 bookings in all');
    const yes = screen.getByRole('button', { name: 'Mark ready' });
    expect(yes).not.toHaveAttribute('data-variant', 'filled-red');
    expect(yes.getAttribute('style') ?? '').not.toMatch(/red/);
    fireEvent.click(yes);
    expect(onConfirm).toHaveBeenCalled();
  });

  it('marks failed with a red button and the note', () => {
    const onConfirm = jest.fn();
    renderWithProviders(
      <FailBatchModal opened bookings={2} onClose={jest.fn()} onConfirm={onConfirm} />,
    );
    expect(screen.getByRole('dialog', { name: 'Mark this batch failed?' })).toHaveTextContent(
      'all 2 bookings on it become Affected',
    );
    fireEvent.change(screen.getByLabelText('What happened'), {
      target: { value: ' Hail on 3 March ' },
    });
    const yes = screen.getByRole('button', { name: 'Mark failed' });
    expect(yes.getAttribute('style') ?? '').toMatch(/red/);
    fireEvent.click(yes);
    expect(onConfirm).toHaveBeenCalledWith('Hail on 3 March');
  });
});
