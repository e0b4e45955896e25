import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { addDays, shopToday, TRANCHE_MESSAGES as TM } from '@spc/shared-contracts';
import { json } from '../../../testing/organisations';
import { renderWithProviders, signInAs } from '../../../testing/render';
import type { OrderTranches, Tranche } from '../api/tranches';
import { OrderTranches as OrderTranchesCard } from './order-tranches';

const ORDER = '6650f0c2a1b2c3d4e5f60001';
const PRODUCT = '6650f0c2a1b2c3d4e5f6d001';
const TRAY = '6650f0c2a1b2c3d4e5f6e001';
const SINGLE = '6650f0c2a1b2c3d4e5f6e002';
const BATCH = '6650f0c2a1b2c3d4e5f6b001';
const today = shopToday();

const trays = {
  productId: PRODUCT,
  productName: 'Acacia tortilis',
  unitId: TRAY,
  unitName: 'Tray of 50',
  seedlings: 50,
  batchId: null,
};
const singles = { ...trays, unitId: SINGLE, unitName: 'Seedling', seedlings: 1, batchId: BATCH };

function tranche(overrides: Partial<Tranche> = {}): Tranche {
  return {
    orderId: ORDER,
    purchaseNumber: 'SPD7K3MX9QA',
    lpoNumber: 'LPO/2026/114',
    number: 1,
    label: 'T1',
    state: 'Planned',
    date: today,
    site: {
      name: 'Gatundu North planting site',
      county: 'Kiambu',
      subCounty: 'Gatundu North',
      contact: { name: 'Peter Mwangi', phone: '+254712345678' },
    },
    lines: [
      { ...trays, quantity: 80, dispatched: null, delivered: null, shortReason: null },
      { ...singles, quantity: 2_000, dispatched: null, delivered: null, shortReason: null },
    ],
    seedlings: 6_000,
    plannedAt: '2026-05-01T07:00:00.000Z',
    changedAt: null,
    dispatchedAt: null,
    signedBy: null,
    signedAt: null,
    recordedAt: null,
    cancelledAt: null,
    signedNote: null,
    ...overrides,
  } as Tranche;
}

function answer(tranches: Tranche[] = []): OrderTranches {
  return {
    orderId: ORDER,
    purchaseNumber: 'SPD7K3MX9QA',
    lines: [
      { ...trays, quantity: 200, planned: 80, onTheWay: 0, delivered: 0, toPlan: 120 },
      { ...singles, quantity: 12_000, planned: 2_000, onTheWay: 0, delivered: 0, toPlan: 10_000 },
    ],
    tranches,
  } as OrderTranches;
}

const ok = (data: object) => json(200, { success: true, message: 'Done', ...data });
const sent = (fetchMock: jest.SpyInstance, method: string) =>
  fetchMock.mock.calls.map((c) => c[0] as Request).filter((r) => r.method === method);

/** Answers the order's tranches with `read` and every change with `write`. */
function api(
  read: () => Response,
  write: (r: Request) => Response | Promise<Response> = () => ok({}),
) {
  return jest
    .spyOn(global, 'fetch')
    .mockImplementation(async (input) =>
      (input as Request).method === 'GET' ? read() : write(input as Request),
    );
}

describe("an order's tranches card", () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  it('shows the lines left to plan and each tranche with its state, site, contact and day', async () => {
    const dispatched = tranche({
      number: 2,
      label: 'T2',
      state: 'Dispatched',
      dispatchedAt: '2026-05-02T06:00:00.000Z',
      site: { ...tranche().site, name: 'Kamwangi primary school woodlot' },
    });
    api(() => ok(answer([tranche(), dispatched])));
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="staff" />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    const t1 = await screen.findByRole('article', { name: 'Tranche T1' });
    const table = screen.getByRole('table', { name: 'Where the lines stand' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(
      'Acacia tortilis · Tray of 50From ready stock2008000120',
    );
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('12,0002,0000010,000');
    expect(t1).toHaveTextContent('Planned');
    expect(t1).toHaveTextContent('Gatundu North planting site, Gatundu North, Kiambu');
    expect(t1).toHaveTextContent('Contact Peter Mwangi · +254712345678');
    expect(t1).toHaveTextContent('80 × Tray of 50 of Acacia tortilis from ready stock');
    expect(t1).toHaveTextContent('2,000 × Seedling of Acacia tortilis from the batch');
    // Staff: dispatch, the note, change and cancel a planned one; the signed note of a dispatched.
    const planned = within(t1).getByRole('group', { name: 'T1 actions' });
    expect(
      within(planned)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Dispatch', 'Delivery note (PDF)', 'Change', 'Cancel tranche']);
    const t2 = screen.getByRole('article', { name: 'Tranche T2' });
    expect(t2).toHaveTextContent('On its way');
    expect(
      within(within(t2).getByRole('group', { name: 'T2 actions' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Delivery note (PDF)', 'Record signed note']);
    expect(screen.getByRole('button', { name: 'Plan a tranche' })).toBeEnabled();
  });

  it("attaches a photo of a dispatched tranche's signed note, and offers the one attached", async () => {
    const dispatched = tranche({
      state: 'Dispatched',
      dispatchedAt: '2026-05-02T06:00:00.000Z',
    });
    const photographed = tranche({
      number: 2,
      label: 'T2',
      state: 'Delivered',
      dispatchedAt: '2026-05-02T06:00:00.000Z',
      signedBy: 'Peter Mwangi',
      signedAt: '2026-05-02T11:00:00.000Z',
      signedNote: {
        contentType: 'image/jpeg',
        size: 204_800,
        uploadedAt: '2026-05-02T12:00:00.000Z',
      },
    });
    const fetchMock = api(
      () => ok(answer([dispatched, photographed, tranche({ number: 3, label: 'T3' })])),
      () => ok({ tranche: { ...dispatched, signedNote: photographed.signedNote } }),
    );
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="staff" />);
    const t1 = await screen.findByRole('article', { name: 'Tranche T1' });
    const t2 = screen.getByRole('article', { name: 'Tranche T2' });
    const t3 = screen.getByRole('article', { name: 'Tranche T3' });
    // A planned load has no signed note to attach.
    expect(within(t3).queryByText(/signed delivery note/i)).not.toBeInTheDocument();
    expect(t2).toHaveTextContent('Signed delivery note: Photo, 200 KB, attached');
    expect(within(t2).getByRole('button', { name: 'View the signed delivery note' })).toBeEnabled();
    expect(within(t2).getByRole('button', { name: 'Replace the signed note' })).toBeEnabled();
    expect(t1).toHaveTextContent('Signed delivery note: no signed note attached');
    within(t1).getByRole('button', { name: 'Attach the signed note' });
    const input = t1.querySelector('input[type="file"]') as HTMLInputElement;
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'note.jpg', {
      type: 'image/jpeg',
    });
    await act(async () => {
      fireEvent.change(input, { target: { files: [photo] } });
    });
    await waitFor(() => expect(sent(fetchMock, 'PUT')).toHaveLength(1));
    expect(sent(fetchMock, 'PUT')[0]!.url).toMatch(
      new RegExp(`/api/orders/${ORDER}/tranches/1/signed-note$`),
    );
  });

  it('gives an admin what the rules table gives admins: plan, change and cancel, no dispatch', async () => {
    signInAs('admin');
    api(() =>
      ok(answer([tranche(), tranche({ number: 2, state: 'Dispatched', dispatchedAt: today })])),
    );
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="admin" />);
    const t1 = await screen.findByRole('article', { name: 'Tranche T1' });
    expect(within(t1).queryByRole('button', { name: 'Dispatch' })).not.toBeInTheDocument();
    expect(within(t1).getByRole('button', { name: 'Change' })).toBeInTheDocument();
    const t2 = screen.getByRole('article', { name: 'Tranche T2' });
    expect(
      within(t2).queryByRole('button', { name: 'Record signed note' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Plan a tranche' })).toBeInTheDocument();
  });

  it('says when there are no tranches yet, and offers no plan to a customer', async () => {
    api(() => ok(answer()));
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="customer" />);
    expect(await screen.findByText(/No tranches yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Plan a tranche' })).not.toBeInTheDocument();
  });

  it('says the tranches could not be loaded and loads them again on "Try again"', async () => {
    let calls = 0;
    api(() =>
      ++calls === 1
        ? json(500, { success: false, message: 'Internal error', code: 'INTERNAL_ERROR' })
        : ok(answer()),
    );
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="staff" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The tranches could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No tranches yet/)).toBeInTheDocument();
  });

  it('checks a plan as the API would before sending it, then sends it once', async () => {
    let release: (r: Response) => void = () => undefined;
    const fetchMock = api(
      () => ok(answer()),
      () => new Promise<Response>((resolve) => (release = resolve)),
    );
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="staff" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Plan a tranche' }));
    const form = await screen.findByRole('form', { name: 'Tranche' });
    const submit = within(form).getByRole('button', { name: 'Plan tranche' });
    fireEvent.change(within(form).getByLabelText("Contact's phone"), {
      target: { value: '12345' },
    });
    fireEvent.change(within(form).getByLabelText('Date'), {
      target: { value: addDays(today, -1) },
    });
    fireEvent.click(submit);
    expect(await within(form).findByText(TM.siteRequired)).toBeInTheDocument();
    expect(within(form).getByText(TM.contactNameRequired)).toBeInTheDocument();
    expect(within(form).getByText(TM.contactPhone)).toBeInTheDocument();
    expect(within(form).getByText(TM.datePast)).toBeInTheDocument();
    expect(within(form).getByText(TM.linesRequired)).toBeInTheDocument();
    // More trays than are left to plan.
    const traysField = within(form).getByRole('textbox', { name: /Tray of 50/ });
    fireEvent.change(traysField, { target: { value: '121' } });
    fireEvent.click(submit);
    expect(
      await within(form).findByText(
        '200 × Tray of 50 of Acacia tortilis from ready stock: at most 120 left to plan',
      ),
    ).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Site'), {
      target: { value: 'Gatundu North planting site' },
    });
    fireEvent.change(within(form).getByLabelText('County'), { target: { value: 'Kiambu' } });
    fireEvent.change(within(form).getByLabelText('Sub-county'), {
      target: { value: 'Gatundu North' },
    });
    fireEvent.change(within(form).getByLabelText("Contact's name"), {
      target: { value: 'Peter Mwangi' },
    });
    fireEvent.change(within(form).getByLabelText("Contact's phone"), {
      target: { value: '0712 345 678' },
    });
    fireEvent.change(within(form).getByLabelText('Date'), { target: { value: today } });
    fireEvent.change(traysField, { target: { value: '120' } });
    fireEvent.click(submit);
    fireEvent.click(submit);
    await waitFor(() => expect(submit).toBeDisabled());
    fireEvent.click(submit);
    expect(sent(fetchMock, 'POST')).toHaveLength(1);
    expect(await sent(fetchMock, 'POST')[0]!.clone().json()).toEqual({
      site: {
        name: 'Gatundu North planting site',
        county: 'Kiambu',
        subCounty: 'Gatundu North',
        contact: { name: 'Peter Mwangi', phone: '0712 345 678' },
      },
      date: today,
      lines: [{ productId: PRODUCT, unitId: TRAY, batchId: null, quantity: 120 }],
    });
    await act(async () => release(json(201, { success: true, message: 'Tranche planned' })));
    expect(await screen.findByText('Tranche planned')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Tranche' })).toBeNull());
  });

  it("shows the API's refusal in a notification", async () => {
    const refused =
      'Tranche T1 of order SPD7K3MX9QA was dispatched on 2026-05-02: only a planned tranche can be dispatched';
    api(
      () => ok(answer([tranche()])),
      () => json(409, { success: false, code: 'ILLEGAL_TRANSITION', message: refused }),
    );
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="staff" />);
    const t1 = await screen.findByRole('article', { name: 'Tranche T1' });
    fireEvent.click(within(t1).getByRole('button', { name: 'Dispatch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dispatch T1' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dispatch' }));
    expect(await screen.findByText(refused)).toBeInTheDocument();
  });
});

describe('the signed delivery note form', () => {
  beforeEach(() => signInAs('staff'));
  afterEach(() => jest.restoreAllMocks());

  const onItsWay = () =>
    tranche({
      state: 'Dispatched',
      dispatchedAt: new Date(Date.now() - 3_600_000).toISOString(),
      lines: [
        { ...trays, quantity: 80, dispatched: 80, delivered: null, shortReason: null },
        { ...singles, quantity: 2_000, dispatched: 2_000, delivered: null, shortReason: null },
      ],
    });

  async function openForm(fetchMock: () => jest.SpyInstance) {
    const spy = fetchMock();
    renderWithProviders(<OrderTranchesCard orderId={ORDER} role="staff" />);
    const t1 = await screen.findByRole('article', { name: 'Tranche T1' });
    fireEvent.click(within(t1).getByRole('button', { name: 'Record signed note' }));
    return { spy, form: await screen.findByRole('form', { name: 'Signed delivery note' }) };
  }

  it('starts from everything that left, signed now; asks who signed', async () => {
    const { spy, form } = await openForm(() => api(() => ok(answer([onItsWay()]))));
    const trayLine = within(form).getByRole('group', {
      name: '80 × Tray of 50 of Acacia tortilis from ready stock',
    });
    expect(within(trayLine).getByLabelText('Delivered (units)')).toHaveValue('80');
    expect((within(form).getByLabelText('Signed at') as HTMLInputElement).value).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d$/,
    );
    expect(within(form).queryByLabelText('Why short')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Record signed note' }));
    expect(await within(form).findByText(TM.signedByRequired)).toBeInTheDocument();
    expect(sent(spy, 'POST')).toHaveLength(0);
  });

  it('refuses a short line without its reason, more than left, and a time in the future or before the load left', async () => {
    const load = onItsWay();
    const { spy, form } = await openForm(() => api(() => ok(answer([load]))));
    fireEvent.change(within(form).getByLabelText('Signed by'), {
      target: { value: 'Peter Mwangi' },
    });
    const trayLine = within(form).getByRole('group', { name: /Tray of 50/ });
    const singleLine = within(form).getByRole('group', { name: /Seedling/ });
    fireEvent.change(within(trayLine).getByLabelText('Delivered (units)'), {
      target: { value: '70' },
    });
    fireEvent.change(within(singleLine).getByLabelText('Delivered (units)'), {
      target: { value: '2001' },
    });
    const at = (ms: number) => {
      const d = new Date(ms);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    };
    fireEvent.change(within(form).getByLabelText('Signed at'), {
      target: { value: at(Date.now() + 60 * 60_000) },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record signed note' }));
    expect(await within(trayLine).findByText(TM.shortReasonRequired)).toBeInTheDocument();
    expect(
      within(singleLine).getByText(
        TM.deliveredTooMany('2,000 × Seedling of Acacia tortilis from the batch', 2_000),
      ),
    ).toBeInTheDocument();
    expect(within(form).getByText(TM.signedAtFuture)).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Signed at'), {
      target: { value: at(Date.now() - 3 * 3_600_000) },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record signed note' }));
    expect(
      await within(form).findByText(/^The note cannot be signed before the load left/),
    ).toBeInTheDocument();
    expect(sent(spy, 'POST')).toHaveLength(0);

    // Put right: the short line with its reason, the other as it left, signed half an hour ago.
    fireEvent.change(within(trayLine).getByLabelText('Why short'), {
      target: { value: '10 trays were crushed on the road' },
    });
    fireEvent.change(within(singleLine).getByLabelText('Delivered (units)'), {
      target: { value: '2000' },
    });
    const signedAt = at(Date.now() - 30 * 60_000);
    fireEvent.change(within(form).getByLabelText('Signed at'), { target: { value: signedAt } });
    fireEvent.click(within(form).getByRole('button', { name: 'Record signed note' }));
    await waitFor(() => expect(sent(spy, 'POST')).toHaveLength(1));
    const request = sent(spy, 'POST')[0]!;
    expect(request.url).toMatch(/\/api\/orders\/6650f0c2a1b2c3d4e5f60001\/tranches\/1\/delivery$/);
    expect(await request.clone().json()).toEqual({
      signedBy: 'Peter Mwangi',
      signedAt: new Date(signedAt).toISOString(),
      lines: [
        {
          productId: PRODUCT,
          unitId: TRAY,
          batchId: null,
          delivered: 70,
          shortReason: '10 trays were crushed on the road',
        },
        { productId: PRODUCT, unitId: SINGLE, batchId: BATCH, delivered: 2_000 },
      ],
    });
  });
});
