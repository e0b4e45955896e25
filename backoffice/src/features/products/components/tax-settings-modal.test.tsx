import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { TAX_SETTINGS_LOAD_ERROR, TaxSettingsModal } from './tax-settings-modal';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const settings = (defaultTaxType: string | null) => ({
  success: true,
  message: 'Tax settings retrieved',
  settings: { defaultTaxType, taxTypes: [], updatedAt: null },
});

function setup() {
  signInAs('admin');
  renderWithProviders(<TaxSettingsModal opened onClose={() => undefined} />);
}

describe("the shop's default tax type", () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the saved default, and saves "no default" as null', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      return request.method === 'PUT'
        ? json({ ...settings(null), message: 'Tax settings saved' })
        : json(settings('B'));
    });
    setup();
    const select = (await screen.findByLabelText(
      'Shop default tax type (KRA eTIMS)',
    )) as HTMLSelectElement;
    expect(select.value).toBe('B');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.change(select, { target: { value: 'none' } });
    fireEvent.click(save);
    expect(await screen.findByText('Tax settings saved')).toBeInTheDocument();
    const put = fetchMock.mock.calls.map(([r]) => r as Request).find((r) => r.method === 'PUT')!;
    expect(new URL(put.url).pathname).toBe('/api/tax/settings');
    expect(await put.json()).toEqual({ defaultTaxType: null });
  });

  it("shows the API's message when it refuses, and a load error with a retry", async () => {
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValueOnce(json({ success: false, statusCode: 500, message: 'x' }, 500))
      .mockResolvedValueOnce(json(settings(null)))
      .mockResolvedValueOnce(
        json(
          {
            success: false,
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            message: 'The default tax type must be one of A, B, C, D, E, or null for none',
          },
          400,
        ),
      );
    setup();
    expect(await screen.findByText(TAX_SETTINGS_LOAD_ERROR)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const select = await screen.findByLabelText('Shop default tax type (KRA eTIMS)');
    fireEvent.change(select, { target: { value: 'E' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'The default tax type must be one of A, B, C, D, E, or null for none',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
  });
});
