import { screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../testing/render';
import { AboutRoute } from './about';

describe("the About page's picture", () => {
  it("is the shop's own photo once uploaded, the drawing before", async () => {
    mockFetch({
      '/api/site-pictures': () => ({
        body: {
          success: true,
          message: 'Site pictures retrieved',
          pictures: { about: { url: '/api/uploads/site/about/ghi-800.webp' } },
        },
      }),
    });
    renderWithProviders(<AboutRoute />);
    const picture = screen.getByRole('img', {
      name: "Trays of young seedlings in the nursery's shade house",
    });
    const drawing = picture.getAttribute('src');
    await waitFor(() => expect(picture.getAttribute('src')).toMatch(/about\/ghi-800\.webp$/));
    expect(drawing).not.toMatch(/webp$/);
    expect(picture).toHaveAttribute('width', '800');
  });

  it('stays the drawing when the pictures cannot be loaded', async () => {
    const { calls } = mockFetch({});
    renderWithProviders(<AboutRoute />);
    const picture = screen.getByRole('img', {
      name: "Trays of young seedlings in the nursery's shade house",
    });
    const drawing = picture.getAttribute('src');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/site-pictures'))).toBe(true));
    expect(picture.getAttribute('src')).toBe(drawing);
  });
});
