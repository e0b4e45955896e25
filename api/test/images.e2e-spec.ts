/**
 * Image uploads cost a bounded amount before any pixel is decoded: the header decides (pixel count,
 * bits per channel, interlacing), decoding stops after a few seconds, and pictures are decoded one at
 * a time (libuv's pool, which argon2 also uses, keeps threads for sign-ins), a few more waiting and
 * the rest answered 503. A 480 KB, 40-megapixel, 16-bit interlaced PNG used to cost 3 s and 400 MB.
 */
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { bearer, registerCustomer, type Session } from './support/identity';
import { tempUploadsDir } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

const flat = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: '#2f6b2f' } });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

describe('image uploads: decoding bounded before work', () => {
  let t: TestApp;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({ name: 'images', env: { UPLOADS_DIR: uploads.dir } });
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  const upload = (who: Session, file: Buffer, name = 'me.png') =>
    t
      .http()
      .patch('/api/users/profile-picture')
      .set(bearer(who.accessToken))
      .attach('profilePicture', file, name);
  const pictureOf = async (who: Session) =>
    (await t.http().get('/api/users/profile').set(bearer(who.accessToken)).expect(200)).body.user
      .profilePicture as string;

  it('refuses a 40-megapixel, 16-bit, interlaced PNG of under 500 KB with 422 from its header, storing nothing', async () => {
    const bomb = await flat(8000, 5000)
      .toColourspace('rgb16')
      .png({ progressive: true, compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(500 * 1024);
    const who = await registerCustomer(t);
    const res = await upload(who, bomb).expect(422);
    expect(res.body).toEqual({
      success: false,
      statusCode: 422,
      code: 'UNPROCESSABLE',
      message:
        'Images must have at most 8 bits per colour channel; save it as an ordinary JPEG, PNG or WebP',
    });
    expect(await pictureOf(who)).toBe('');
    expect(await filesUnder(uploads.dir)).toEqual([]);
  });

  it('refuses a 16-bit PNG, and an interlaced PNG or progressive JPEG over 12 megapixels, with 422', async () => {
    const who = await registerCustomer(t);
    const deep = await flat(1000, 800).toColourspace('rgb16').png().toBuffer();
    expect((await upload(who, deep).expect(422)).body.message).toMatch(
      /^Images must have at most 8 bits/,
    );
    const progressive =
      'An interlaced PNG or progressive JPEG may be at most 12 megapixels; save it as an ordinary JPEG or PNG, or smaller';
    const interlaced = await flat(8000, 5000).png({ progressive: true }).toBuffer();
    expect((await upload(who, interlaced).expect(422)).body.message).toBe(progressive);
    const jpeg = await flat(6000, 4000).jpeg({ progressive: true }).toBuffer();
    expect((await upload(who, jpeg, 'me.jpg').expect(422)).body.message).toBe(progressive);
    expect(await pictureOf(who)).toBe('');
    expect(await filesUnder(uploads.dir)).toEqual([]);
  });

  it('still takes a 12-megapixel progressive JPEG and a 40-megapixel ordinary one', async () => {
    const who = await registerCustomer(t);
    const photo = await flat(4000, 3000).jpeg({ progressive: true }).toBuffer();
    const res = await upload(who, photo, 'photo.jpg').expect(200);
    const served = await t.http().get(res.body.user.profilePicture).expect(200);
    expect(await sharp(served.body as Buffer).metadata()).toMatchObject({
      format: 'webp',
      width: 256,
      height: 192,
    });
    const large = await flat(8000, 5000).jpeg().toBuffer();
    await upload(who, large, 'large.jpg').expect(200);
  });

  it('decodes one picture at a time, answering 503 to uploads beyond the few that may wait', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => registerCustomer(t)));
    // Each takes a few hundred milliseconds to decode (interlaced: decoded whole).
    const picture = await flat(4000, 3000, 4).png({ progressive: true }).toBuffer();
    let decodingAtOnce = 0;
    const watch = setInterval(() => {
      decodingAtOnce = Math.max(decodingAtOnce, sharp.counters().process);
    }, 2);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => upload(people[i % people.length]!, picture)),
    ).finally(() => clearInterval(watch));
    const statuses = answers.map((a) => a.status);
    expect(decodingAtOnce).toBe(1);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(30);
    for (const busy of answers.filter((a) => a.status !== 200)) {
      expect(busy.status).toBe(503);
      expect(busy.body.message).toBe(
        'Many pictures are being processed right now; please try again in a moment',
      );
    }
  });
});
