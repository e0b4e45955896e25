import { screen, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { DeliveryZonesRoute } from './delivery-zones';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(zones: unknown[], fallback = { name: 'Rest of Kenya', fee: 0, days: 3 }) {
  return jest
    .spyOn(global, 'fetch')
    .mockImplementation(async () =>
      json(200, { success: true, message: 'Delivery zones retrieved', zones, fallback }),
    );
}

describe('delivery zones screen', () => {
  beforeEach(() => signInAs('admin'));
  afterEach(() => jest.restoreAllMocks());

  it('lists each zone with its places, fee and days, the fallback and collection', async () => {
    answer([
      {
        _id: 'z1',
        name: 'Nairobi',
        areas: [{ county: 'Nairobi' }, { county: 'Kiambu', subCounty: 'Ruiru' }],
        restOfKenya: false,
        fee: 300,
        days: 2,
        createdAt: '2026-11-23T06:00:00.000Z',
        updatedAt: '2026-11-23T06:00:00.000Z',
      },
    ]);
    renderWithProviders(<DeliveryZonesRoute />);
    const table = await screen.findByRole('table', { name: 'Delivery zones' });
    const row = within(table).getByText('KSH 300').closest('tr')!;
    expect(within(row).getByText('Kiambu / Ruiru')).toBeInTheDocument();
    expect(within(row).getByText('2 days')).toBeInTheDocument();
    expect(screen.getByText('Rest of Kenya')).toBeInTheDocument();
    expect(screen.getByText('Collect at the nursery')).toBeInTheDocument();
  });

  it('says all of Kenya is delivered free in 3 days while there are no zones', async () => {
    answer([], { name: 'All of Kenya', fee: 0, days: 3 });
    renderWithProviders(<DeliveryZonesRoute />);
    expect(
      await screen.findByText(
        'No delivery zones yet: all of Kenya is delivered at KSH 0 in 3 days.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
