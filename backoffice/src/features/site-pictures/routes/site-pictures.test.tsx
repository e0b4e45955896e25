import { File as NodeFile } from 'node:buffer';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { SitePicturesRoute } from './site-pictures';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const HERO = { url: '/api/uploads/site/hero-1/abc-1200.webp', width: 1200, height: 600 };

describe('shop pictures', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    // Toasts of one test must not answer for the next.
    act(() => notifications.clean());
  });

  it('shows each place with its own photo or "Drawing (default)"', async () => {
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(
        json({ success: true, message: 'Site pictures retrieved', pictures: { 'hero-1': HERO } }),
      );
    signInAs('admin');
    renderWithProviders(<SitePicturesRoute />);
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    const hero = await screen.findByTestId('site-picture-hero-1');
    expect(within(hero).getByRole('img', { name: 'Home banner, first slide' })).toHaveAttribute(
      'src',
      expect.stringContaining('/api/uploads/site/hero-1/abc-1200.webp'),
    );
    const about = screen.getByTestId('site-picture-about');
    expect(within(about).getByText('Drawing (default)')).toBeInTheDocument();
    expect(
      within(about).getByRole('button', { name: 'Use the drawing for About page' }),
    ).toBeDisabled();
    expect(screen.getAllByText('Drawing (default)')).toHaveLength(8);
  });

  it('uploads a picture as multipart, disabled while sending, then shows it and a toast', async () => {
    let release!: (r: Response) => void;
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValueOnce(
        json({ success: true, message: 'Site pictures retrieved', pictures: {} }),
      )
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    signInAs('admin');
    renderWithProviders(<SitePicturesRoute />);
    const about = await screen.findByTestId('site-picture-about');
    const input = about.querySelector('input[type="file"]') as HTMLInputElement;
    // Node's File, which the fetch under test (Node's) can send as a file part.
    const file = new NodeFile([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'nursery.jpg', {
      type: 'image/jpeg',
    });
    fireEvent.change(input, { target: { files: [file] } });

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const request = fetchMock.mock.calls[1]![0] as Request;
    expect(request.method).toBe('PUT');
    expect(request.url).toMatch(/\/api\/site-pictures\/about$/);
    const sent = (await request.formData()).get('picture');
    expect(typeof sent).not.toBe('string');
    expect((sent as File).name).toBe('nursery.jpg');
    expect((sent as File).size).toBe(4);
    await waitFor(() =>
      expect(
        within(about).getByRole('button', { name: 'Upload a picture for About page' }),
      ).toBeDisabled(),
    );

    release(
      json({
        success: true,
        message: 'Site picture updated',
        pictures: {
          about: { url: '/api/uploads/site/about/def-800.webp', width: 800, height: 400 },
        },
      }),
    );
    expect(await screen.findByText('Site picture updated')).toBeInTheDocument();
    expect(within(about).getByRole('img', { name: 'About page' })).toBeInTheDocument();
    expect(
      within(about).getByRole('button', { name: 'Use the drawing for About page' }),
    ).toBeEnabled();
  });

  it("sends a hero slide's video address with its picture, and shows the one kept", async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValueOnce(
        json({
          success: true,
          message: 'Site pictures retrieved',
          pictures: { 'hero-1': { ...HERO, video: 'https://cdn.example.co.ke/rows.mp4' } },
        }),
      )
      .mockResolvedValueOnce(
        json({ success: true, message: 'Site picture updated', pictures: { 'hero-2': HERO } }),
      );
    signInAs('admin');
    renderWithProviders(<SitePicturesRoute />);
    expect(await screen.findByLabelText('Video for Home banner, first slide')).toHaveValue(
      'https://cdn.example.co.ke/rows.mp4',
    );
    expect(screen.queryByLabelText('Video for About page')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Video for Home banner, second slide'), {
      target: { value: ' https://cdn.example.co.ke/trays.mp4 ' },
    });
    const hero2 = screen.getByTestId('site-picture-hero-2');
    const file = new NodeFile([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'trays.png', {
      type: 'image/png',
    });
    fireEvent.change(hero2.querySelector('input[type="file"]')!, { target: { files: [file] } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const form = await (fetchMock.mock.calls[1]![0] as Request).formData();
    expect(form.get('video')).toBe('https://cdn.example.co.ke/trays.mp4');
    expect(
      await within(hero2).findByRole('img', { name: 'Home banner, second slide' }),
    ).toBeInTheDocument();
  });

  it('refuses a file that is not a picture before sending it', async () => {
    const fetchMock = jest
      .spyOn(global, 'fetch')
      .mockResolvedValue(json({ success: true, message: 'Site pictures retrieved', pictures: {} }));
    signInAs('admin');
    renderWithProviders(<SitePicturesRoute />);
    const about = await screen.findByTestId('site-picture-about');
    const file = new NodeFile(['not a picture'], 'notes.txt', { type: 'text/plain' });
    fireEvent.change(about.querySelector('input[type="file"]')!, { target: { files: [file] } });
    expect(await screen.findByText('Please choose a JPEG, PNG or WebP image')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('goes back to the drawing and shows the server message on failure', async () => {
    jest
      .spyOn(global, 'fetch')
      .mockResolvedValueOnce(
        json({ success: true, message: 'Site pictures retrieved', pictures: { 'hero-1': HERO } }),
      )
      .mockResolvedValueOnce(
        json({ success: false, statusCode: 503, message: 'The database is away' }, 503),
      )
      .mockResolvedValueOnce(
        json({
          success: true,
          message: 'Site picture removed; the drawing shows again',
          pictures: {},
        }),
      );
    signInAs('admin');
    renderWithProviders(<SitePicturesRoute />);
    const hero = await screen.findByTestId('site-picture-hero-1');
    const back = within(hero).getByRole('button', {
      name: 'Use the drawing for Home banner, first slide',
    });
    fireEvent.click(back);
    expect(await screen.findByText('The database is away')).toBeInTheDocument();
    expect(within(hero).getByRole('img')).toBeInTheDocument();
    fireEvent.click(back);
    expect(
      await screen.findByText('Site picture removed; the drawing shows again'),
    ).toBeInTheDocument();
    expect(within(hero).getByText('Drawing (default)')).toBeInTheDocument();
  });

  it('says so when the pictures cannot be loaded', async () => {
    jest.spyOn(global, 'fetch').mockResolvedValue(json({ success: false, message: 'x' }, 500));
    signInAs('admin');
    renderWithProviders(<SitePicturesRoute />);
    const shown = await screen.findAllByText(BACKOFFICE_MESSAGES.listError);
    expect(shown.some((el) => el.getAttribute('role') === 'alert')).toBe(true);
    expect(screen.queryByText('Drawing (default)')).not.toBeInTheDocument();
  });
});
