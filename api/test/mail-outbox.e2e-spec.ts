/**
 * Without SMTP each e-mail is written to DATA_DIR/outbox as a file of its own: messages sent in the
 * same millisecond with the same subject (a burst of contact messages, a bulk action's mails) never
 * share a name, so none overwrites another, and the names sort in sending order.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MailService } from '../src/mail/mail.service';
import { createTestApp, type TestApp } from './support/test-app';

describe('mail outbox: one file per e-mail', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-outbox-'));
    t = await createTestApp({ name: 'outbox', env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps all of 40 e-mails with one subject sent at once, each in its own file, in sending order', async () => {
    const mail = t.app.get(MailService);
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        mail.send({
          to: `shopper${i}@example.co.ke`,
          subject: 'Your order is on its way',
          text: `Message number ${i}`,
        }),
      ),
    );
    expect(sent).toEqual(Array(40).fill(true));
    const dir = path.join(dataDir, 'outbox');
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(40);
    const recipients = await Promise.all(
      files.map(async (f) => /^To: (\S+)$/m.exec(await readFile(path.join(dir, f), 'utf8'))?.[1]),
    );
    expect(recipients).toEqual(Array.from({ length: 40 }, (_, i) => `shopper${i}@example.co.ke`));
    for (const f of files) expect(f).toMatch(/-your-order-is-on-its-way\.eml$/);
  });
});
