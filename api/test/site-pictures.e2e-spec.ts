import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { jpegImage, pngImage, tempUploadsDir } from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

interface Pictures {
  success: boolean;
  message: string;
  pictures: Record<string, { url: string; width?: number; height?: number; video?: string }>;
}

describe('site pictures', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'site_pictures',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
    });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken, { fullName: 'Grace Njeri' });
    customer = await registerCustomer(t);
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  const upload = (
    slot: string,
    token: string | undefined,
    file: { buffer: Buffer; name?: string; field?: string } | undefined,
    fields: Record<string, string> = {},
  ) => {
    let req = t.http().put(`/api/site-pictures/${slot}`);
    if (token) req = req.set(bearer(token));
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    if (file) {
      req = req.attach(file.field ?? 'picture', file.buffer, {
        filename: file.name ?? 'photo.jpg',
        contentType: 'application/octet-stream',
      });
    } else {
      req = req.field('nothing', '');
    }
    return req;
  };
  const publicList = async (): Promise<Pictures> =>
    (await t.http().get('/api/site-pictures').expect(200)).body as Pictures;
  const audit = async () => {
    const res = await t.http().get('/api/audit-logs').set(bearer(admin.accessToken)).expect(200);
    return (res.body as { action: string; message: string }[]).map((e) => [e.action, e.message]);
  };
  const siteFiles = async (slot: string) =>
    readdir(path.join(uploads.dir, 'site', slot)).catch(() => [] as string[]);

  it('answers no pictures to anyone before the shop uploads one', async () => {
    expect(await publicList()).toEqual({
      success: true,
      message: 'Site pictures retrieved',
      pictures: {},
    });
  });

  describe('who may change them', () => {
    it.each([
      ['PUT', 'anonymous', 401],
      ['PUT', 'customer', 403],
      ['PUT', 'staff', 403],
      ['DELETE', 'anonymous', 401],
      ['DELETE', 'customer', 403],
      ['DELETE', 'staff', 403],
    ] as const)('%s by %s answers %i and changes nothing', async (method, who, status) => {
      const token = who === 'anonymous' ? undefined : { customer, staff }[who].accessToken;
      const image = await pngImage(400, 300);
      const res =
        method === 'PUT'
          ? await upload('hero-2', token, { buffer: image })
          : await (token
              ? t.http().delete('/api/site-pictures/about').set(bearer(token))
              : t.http().delete('/api/site-pictures/about'));
      expect(res.status).toBe(status);
      expect(res.body.success).toBe(false);
      expect((await publicList()).pictures['hero-2']).toBeUndefined();
    });
  });

  it('lets the admin upload a hero picture that everyone then sees, stored as WebP, and audits it', async () => {
    const res = await upload('hero-1', admin.accessToken, {
      buffer: await jpegImage(2000, 1000),
    }).expect(200);
    const picture = (res.body as Pictures).pictures['hero-1']!;
    expect(res.body.message).toBe('Site picture updated');
    expect(picture).toEqual({
      url: expect.stringMatching(/^\/api\/uploads\/site\/hero-1\/[0-9a-f]{16}-1200\.webp$/),
      width: 1200,
      height: 600,
    });
    expect((await publicList()).pictures).toEqual({ 'hero-1': picture });

    const file = await t.http().get(picture.url).buffer(true).expect(200);
    const meta = await sharp(file.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 600]);
    expect(await audit()).toContainEqual([
      'site-picture.update',
      "Shop Admin uploaded the shop's own picture for hero-1",
    ]);
  });

  it('replaces a picture and removes the old files', async () => {
    await upload('about', admin.accessToken, {
      buffer: await pngImage(900, 450, '#1b5e20'),
    }).expect(200);
    const first = await siteFiles('about');
    expect(first).toHaveLength(2);
    const res = await upload('about', admin.accessToken, {
      buffer: await pngImage(900, 450, '#f9a825'),
    }).expect(200);
    expect((res.body as Pictures).pictures.about).toEqual({
      url: expect.stringContaining('/api/uploads/site/about/'),
      width: 800,
      height: 400,
    });
    const second = await siteFiles('about');
    expect(second).toHaveLength(2);
    expect(second.filter((f) => first.includes(f))).toEqual([]);
  });

  it('takes the picture away on delete: the drawing shows again, files gone, audited', async () => {
    await upload('collection-fruits', admin.accessToken, {
      buffer: await pngImage(600, 400),
    }).expect(200);
    expect((await publicList()).pictures['collection-fruits']).toBeDefined();
    const res = await t
      .http()
      .delete('/api/site-pictures/collection-fruits')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(res.body.message).toBe('Site picture removed; the drawing shows again');
    expect(res.body.pictures['collection-fruits']).toBeUndefined();
    expect((await publicList()).pictures['collection-fruits']).toBeUndefined();
    expect(await siteFiles('collection-fruits')).toEqual([]);
    expect(await audit()).toContainEqual([
      'site-picture.remove',
      "Shop Admin removed the shop's picture for collection-fruits; the drawing shows again",
    ]);

    const again = await t
      .http()
      .delete('/api/site-pictures/collection-fruits')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(again.body.message).toBe('This place already shows its drawing');
  });

  it('refuses an unknown place with 400 naming the places there are', async () => {
    const before = await publicList();
    const res = await upload('hero-4', admin.accessToken, {
      buffer: await pngImage(100, 100),
    }).expect(400);
    expect(res.body.message).toBe(
      'Unknown picture place "hero-4": use one of hero-1, hero-2, hero-3, collection-vegetables, ' +
        'collection-herbs, collection-flowers, collection-fruits, collection-forestry, about',
    );
    await t.http().delete('/api/site-pictures/banner').set(bearer(admin.accessToken)).expect(400);
    expect(await publicList()).toEqual(before);
  });

  it('refuses a file that is not an image with 415, as product uploads do', async () => {
    const res = await upload('hero-3', admin.accessToken, {
      buffer: Buffer.from('just some text, not a picture'),
      name: 'seedling.png',
    }).expect(415);
    expect(res.body).toEqual({
      success: false,
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Only JPEG, PNG or WebP images are accepted',
    });
    expect((await publicList()).pictures['hero-3']).toBeUndefined();
    expect(await siteFiles('hero-3')).toEqual([]);
  });

  it('refuses an image over 5 MB with 413', async () => {
    const png = await pngImage(10, 10);
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    const res = await upload('hero-3', admin.accessToken, { buffer: big }).expect(413);
    expect(res.body.message).toBe('Images must be at most 5 MB');
  });

  it('asks for a picture when none is sent, and for it under the picture field', async () => {
    const none = await upload('hero-3', admin.accessToken, undefined).expect(400);
    expect(none.body.message).toBe('property nothing should not exist');
    const empty = await upload('hero-3', admin.accessToken, { buffer: Buffer.alloc(0) }).expect(
      400,
    );
    expect(empty.body.message).toBe('Choose a picture to upload');
    const wrong = await upload('hero-3', admin.accessToken, {
      buffer: await pngImage(100, 100),
      field: 'productImage',
    }).expect(400);
    expect(wrong.body.message).toBe(
      'Unexpected file field "productImage": send the image as picture',
    );
  });

  describe('hero videos', () => {
    it('keeps a video address for a hero slide, with the picture as its poster', async () => {
      const res = await upload(
        'hero-2',
        admin.accessToken,
        { buffer: await pngImage(1600, 900) },
        { video: 'https://cdn.example.co.ke/nursery-rows.mp4' },
      ).expect(200);
      expect((res.body as Pictures).pictures['hero-2']).toEqual({
        url: expect.stringContaining('/api/uploads/site/hero-2/'),
        width: 1200,
        height: 675,
        video: 'https://cdn.example.co.ke/nursery-rows.mp4',
      });
      // A new upload without a video drops it.
      const plain = await upload('hero-2', admin.accessToken, {
        buffer: await pngImage(1600, 900, '#33691e'),
      }).expect(200);
      expect((plain.body as Pictures).pictures['hero-2']!.video).toBeUndefined();
    });

    it.each([
      [
        'collection-herbs',
        'https://cdn.example.co.ke/a.mp4',
        'Only the home banner slides (hero-1, hero-2, hero-3) take a video',
      ],
      [
        'hero-3',
        'http://cdn.example.co.ke/a.mp4',
        'The video must be an https:// address or a path under /api/uploads/, at most 500 characters',
      ],
      [
        'hero-3',
        'javascript:alert(1)',
        'The video must be an https:// address or a path under /api/uploads/, at most 500 characters',
      ],
      ['hero-3', 'https://cdn.example.co.ke/a.gif', 'The video must be an MP4 file (.mp4)'],
    ])('refuses a video on %s given as %s', async (slot, video, message) => {
      const res = await upload(
        slot,
        admin.accessToken,
        { buffer: await pngImage(100, 100) },
        { video },
      ).expect(400);
      expect(res.body.message).toBe(message);
      expect((await publicList()).pictures[slot]).toBeUndefined();
    });
  });
});
