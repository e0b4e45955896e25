import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatMoney } from '@spc/shared-contracts';
import { IDBFactory } from 'fake-indexeddb';
import { createProduct } from '../../../testing/factories';
import { renderWithProviders, signInAs } from '../../../testing/render';
import {
  createTillSale,
  createTillSession,
  fakeApi,
  json,
  SESSION_ID,
} from '../../../testing/till';
import { useSessionStore } from '../../../lib/session-store';
import { TillRoute } from '../routes/till';
import { useBasketStore } from '../stores/basket-store';
import {
  closeOfflineDb,
  readCatalogue,
  readIdentity,
  readQueue,
  saveCatalogue,
  saveIdentity,
  type QueuedSale,
} from '../offline/offline-db';
import { forgetClerkOnSignOut } from '../offline/offline-sync';
import { enqueueSale, loadOfflineQueue, useOfflineQueue } from '../offline/offline-queue';
import { TillStatusLine } from './till-status-line';

const TRAY_ID = '6650f0c2a1b2c3d4e5f6a0aa';
const kale = createProduct({
  productQuantity: 500,
  units: [
    {
      _id: TRAY_ID,
      name: 'Tray of 50',
      seedlings: 50,
      price: 1500,
      offerPrice: 0,
      sku: '',
      minQuantity: 1,
      step: 1,
      tiers: [],
    },
  ],
});

function setOnline(online: boolean) {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  closeOfflineDb();
  useOfflineQueue.setState({ loaded: false, queue: [], refused: [], sent: [], sending: false });
  useBasketStore.getState().clear();
});
afterEach(() => {
  setOnline(true);
  jest.restoreAllMocks();
});

describe('the till offline', () => {
  it('says online or offline, how many sales wait, and what was refused in the API’s words', async () => {
    renderWithProviders(<TillStatusLine staffId="clerk-1" />);
    const status = screen.getByRole('status', { name: 'Till network status' });
    expect(status).toHaveTextContent('Online');
    expect(status).toHaveTextContent('0 sales waiting to send');
    setOnline(false);
    expect(status).toHaveTextContent('Offline: sales are kept on this device');
    const sale = {
      key: 'k1',
      staffId: 'clerk-1',
      sellerName: 'Grace',
      input: {
        sessionId: SESSION_ID,
        lines: [],
        payments: [],
        offline: { soldAt: '2026-11-28T09:00:00.000Z', prices: [] },
      },
      lines: [],
      payments: [{ method: 'cash' as const, amount: 1500 }],
      total: 1500,
      change: 0,
    };
    act(() =>
      useOfflineQueue.setState({
        queue: [sale, { ...sale, key: 'k2' }],
        sending: true,
        refused: [
          {
            ...sale,
            key: 'k3',
            status: 409,
            message: 'This till session is closed',
            refusedAt: '',
          },
        ],
      }),
    );
    expect(status).toHaveTextContent('2 sales waiting to send');
    expect(status).toHaveTextContent('Sending…');
    expect(status).toHaveTextContent('1 sale refused');
    const refused = screen.getByTestId('refused-sale');
    expect(refused).toHaveTextContent('This till session is closed');
    expect(refused).toHaveTextContent(formatMoney(1500));
  });

  it('reloaded offline, opens the kept session, sells from the kept catalogue and queues the sale', async () => {
    signInAs('staff');
    const staff = useSessionStore.getState().user!;
    const session = createTillSession();
    await saveIdentity({
      staffId: staff._id,
      name: staff.fullName,
      role: 'staff',
      session,
      savedAt: '',
    });
    await saveCatalogue({ products: [kale], savedAt: '' });
    setOnline(false);
    const seen = fakeApi(() => {
      throw new TypeError('Failed to fetch');
    });
    renderWithProviders(<TillRoute />, { route: '/till' });
    const status = await screen.findByRole('status', { name: 'Till network status' });
    expect(status).toHaveTextContent('Offline: sales are kept on this device');
    const card = await screen.findByLabelText(kale.productName);
    expect(within(card).getByTestId('product-stock')).toHaveTextContent('500 seedlings in stock');
    expect(screen.getByRole('button', { name: 'M-Pesa prompt' })).toBeDisabled();
    expect(screen.getByTestId('prompt-offline')).toHaveTextContent(
      'The M-Pesa prompt needs the network',
    );
    fireEvent.click(within(card).getByRole('button', { name: /^Add Tray of 50/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Cash given' }), {
      target: { value: '2000' },
    });
    fireEvent.click(screen.getByRole('button', { name: `Charge ${formatMoney(1500)}` }));
    expect(await screen.findByText('Sale kept on this device')).toBeInTheDocument();
    expect(screen.getByTestId('sale-change')).toHaveTextContent(formatMoney(500));
    expect(status).toHaveTextContent('1 sale waiting to send');
    const [queued] = await readQueue();
    expect(queued!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(queued!.input).toMatchObject({
      sessionId: session._id,
      lines: [{ productId: kale._id, unitId: TRAY_ID, quantity: 1 }],
      payments: [{ method: 'cash', amount: 1500, given: 2000 }],
      offline: { prices: [{ productId: kale._id, unitId: TRAY_ID, unitPrice: 1500 }] },
    });
    expect(screen.getByRole('link', { name: 'Print receipt' })).toHaveAttribute(
      'href',
      `/till/offline-receipt/${queued!.key}`,
    );
    // The stock shown is less the queued sale's 50 seedlings.
    fireEvent.click(screen.getByRole('button', { name: 'New sale' }));
    expect(
      within(await screen.findByLabelText(kale.productName)).getByTestId('product-stock'),
    ).toHaveTextContent('450 seedlings in stock');
    expect(seen.filter((r) => r.method === 'POST')).toEqual([]);

    // Back online: the sale is sent under its key, with its offline time and prices.
    seen.length = 0;
    jest.restoreAllMocks();
    const posted = fakeApi(({ method, path }) => {
      if (method === 'POST' && path === '/api/till/sales')
        return json(201, {
          success: true,
          message: 'Sale made',
          sale: createTillSale({ purchaseNumber: 'G-2026-0001' }),
        });
      if (path === '/api/till/sessions/current')
        return json(200, { success: true, message: '', session });
      if (path.startsWith('/api/products'))
        return json(200, {
          success: true,
          message: '',
          products: [kale],
          totalPages: 1,
          totalProducts: 1,
        });
      if (path.startsWith('/api/till/sales'))
        return json(200, { success: true, message: '', sales: [] });
      return undefined;
    });
    setOnline(true);
    await waitFor(() => expect(status).toHaveTextContent('0 sales waiting to send'));
    const post = posted.filter((r) => r.method === 'POST');
    expect(post).toHaveLength(1);
    expect(post[0]!.headers.get('Idempotency-Key')).toBe(queued!.key);
    expect(post[0]!.body).toEqual(queued!.input);
    expect(await readQueue()).toEqual([]);
    await loadOfflineQueue();
  });

  it('forgets the kept clerk, session and catalogue at sign-out, and keeps the sales waiting', async () => {
    signInAs('staff');
    const staff = useSessionStore.getState().user!;
    await saveIdentity({
      staffId: staff._id,
      name: staff.fullName,
      role: 'staff',
      session: createTillSession(),
      savedAt: '',
    });
    await saveCatalogue({ products: [kale], savedAt: '' });
    await enqueueSale(queuedKale(staff._id));
    const stop = forgetClerkOnSignOut();
    signInAs(null);
    await waitFor(async () => expect(await readIdentity()).toBeUndefined());
    expect(await readCatalogue()).toBeUndefined();
    expect((await readQueue()).map((q) => q.key)).toEqual(['kept']);
    stop();
  });
});

function queuedKale(staffId: string): QueuedSale {
  return {
    key: 'kept',
    staffId,
    sellerName: 'Grace',
    input: {
      sessionId: SESSION_ID,
      lines: [{ productId: kale._id, unitId: TRAY_ID, quantity: 1 }],
      payments: [{ method: 'cash', amount: 1500 }],
      offline: {
        soldAt: '2026-11-28T09:00:00.000Z',
        prices: [{ productId: kale._id, unitId: TRAY_ID, unitPrice: 1500 }],
      },
    },
    lines: [],
    payments: [{ method: 'cash', amount: 1500 }],
    total: 1500,
    change: 0,
  };
}
