import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  formatMoney,
  STOCK_SHORT_LABEL,
  TILL_ATTENTION_LABELS,
  TILL_MESSAGES,
} from '@spc/shared-contracts';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { createTillSale, fakeApi, json, SALE_ID, SESSION_ID } from '../../../testing/till';
import { SalesList } from './sales-list';

const APPROVER = { _id: '6650f0c2a1b2c3d4e5f6d002', fullName: 'Otieno Peter' };

const staffPage = () =>
  json(200, {
    success: true,
    message: '',
    staff: [{ _id: '64b7f0c2a1b2c3d4e5f60718', fullName: 'Wanjiku Mary Kamau' }, APPROVER],
    totalStaff: 2,
    totalPages: 1,
  });

/** The session's one sale and the staff list; a void is answered by `voidAnswer` in turn. */
function answer(voidAnswers: Response[]) {
  return fakeApi(({ method, path }) => {
    if (path.startsWith(`/api/till/sales?sessionId=${SESSION_ID}`))
      return json(200, { success: true, message: '', sales: [createTillSale()] });
    if (path.startsWith('/api/staff')) return staffPage();
    if (method === 'POST' && path === `/api/till/sales/${SALE_ID}/void`) return voidAnswers.shift();
    return undefined;
  });
}

describe('the day’s sales', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows that there are no sales yet', async () => {
    fakeApi(({ path }) =>
      path.startsWith('/api/till/sales')
        ? json(200, { success: true, message: '', sales: [] })
        : undefined,
    );
    signInAs('staff');
    renderWithProviders(<SalesList sessionId={SESSION_ID} />);
    expect(await screen.findByText('No sales yet in this session.')).toBeInTheDocument();
  });

  it('voids a sale only with a second person’s PIN, and says a wrong or locked PIN in the API’s words', async () => {
    const seen = answer([
      json(403, { success: false, message: TILL_MESSAGES.pinWrong(4), code: 'FORBIDDEN' }),
      json(403, { success: false, message: TILL_MESSAGES.pinLocked, code: 'FORBIDDEN' }),
    ]);
    signInAs('staff');
    renderWithProviders(<SalesList sessionId={SESSION_ID} />);
    const card = await screen.findByLabelText('Sale SPGATE0001');
    expect(within(card).getByRole('link', { name: 'Reprint' })).toHaveAttribute(
      'href',
      `/till/receipt/${SALE_ID}`,
    );
    fireEvent.click(within(card).getByRole('button', { name: 'Void' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void sale SPGATE0001' });

    // The PIN's form is checked before anything is sent.
    fireEvent.change(within(dialog).getByLabelText('Their till PIN'), { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Void sale' }));
    expect(await within(dialog).findByText(TILL_MESSAGES.pinForm)).toBeInTheDocument();
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(0);

    // The seller is not offered as their own approver.
    const picker = within(dialog).getByRole('textbox', { name: 'Approved by' });
    fireEvent.click(picker);
    expect(await screen.findByRole('option', { name: APPROVER.fullName })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Wanjiku Mary Kamau' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('option', { name: APPROVER.fullName }));
    fireEvent.change(within(dialog).getByLabelText('Their till PIN'), {
      target: { value: '1234' },
    });
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Rang up the wrong tray' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Void sale' }));
    expect(await within(dialog).findByText(TILL_MESSAGES.pinWrong(4))).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Their till PIN')).toHaveValue(''));
    expect(seen.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { approverId: APPROVER._id, pin: '1234', reason: 'Rang up the wrong tray' },
    ]);

    fireEvent.change(within(dialog).getByLabelText('Their till PIN'), {
      target: { value: '4321' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Void sale' }));
    expect(await within(dialog).findByText(TILL_MESSAGES.pinLocked)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Void sale SPGATE0001' })).toBeInTheDocument();
  });

  it('refunds no more than what is left of the sale', async () => {
    const seen = fakeApi(({ method, path }) => {
      if (path.startsWith('/api/till/sales?'))
        return json(200, {
          success: true,
          message: '',
          sales: [createTillSale({ refunded: 1100, state: 'refunded' })],
        });
      if (path.startsWith('/api/staff')) return staffPage();
      if (method === 'POST')
        return json(200, { success: true, message: 'Sale refunded', sale: createTillSale() });
      return undefined;
    });
    signInAs('staff');
    renderWithProviders(<SalesList sessionId={SESSION_ID} />);
    const card = await screen.findByLabelText('Sale SPGATE0001');
    expect(within(card).queryByRole('button', { name: 'Void' })).not.toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund sale SPGATE0001' });
    const amount = within(dialog).getByRole('textbox', { name: 'Amount to give back' });
    expect(amount).toHaveValue('KES 4,000');
    fireEvent.change(amount, { target: { value: '4500' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(
      await within(dialog).findByText(TILL_MESSAGES.refundAboveSale(formatMoney(4000))),
    ).toBeInTheDocument();
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('shows a sale needing attention with its reasons and settles it in cash; a short sale says so', async () => {
    let sale = createTillSale({
      state: 'needs-attention',
      short: true,
      offline: { soldAt: '2026-11-28T09:00:00.000Z' },
      needsAttention: { reasons: ['code-unconfirmed'], unpaid: 1500, code: 'SGR4T5Y6U7' },
    });
    const seen = fakeApi(({ method, path }) => {
      if (path.startsWith(`/api/till/sales?sessionId=${SESSION_ID}`))
        return json(200, { success: true, message: '', sales: [sale] });
      if (method === 'POST' && path === `/api/till/sales/${SALE_ID}/settle`) {
        sale = { ...sale, state: 'paid', needsAttention: null };
        return json(201, { success: true, message: 'Settled', sale });
      }
      return undefined;
    });
    signInAs('staff');
    renderWithProviders(<SalesList sessionId={SESSION_ID} />);
    const attention = await screen.findByTestId('sale-attention');
    expect(attention).toHaveTextContent(
      `${TILL_ATTENTION_LABELS['code-unconfirmed']} (SGR4T5Y6U7)`,
    );
    expect(attention).toHaveTextContent(`Unpaid: ${formatMoney(1500)}`);
    expect(screen.getByText('Needs attention')).toBeInTheDocument();
    expect(screen.getByTestId('sale-short')).toHaveTextContent(STOCK_SHORT_LABEL);
    expect(screen.getByText(/^Sold offline/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Settle' }));
    const dialog = await screen.findByRole('dialog');
    const settle = within(dialog).getByRole('button', { name: `Settle ${formatMoney(1500)}` });
    expect(settle).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Cash given' }), {
      target: { value: '2000' },
    });
    fireEvent.click(settle);
    await waitFor(() => expect(screen.queryByTestId('sale-attention')).not.toBeInTheDocument());
    expect(seen.find((r) => r.method === 'POST')?.body).toEqual({
      sessionId: SESSION_ID,
      payments: [{ method: 'cash', amount: 1500, given: 2000 }],
    });
  });
});
