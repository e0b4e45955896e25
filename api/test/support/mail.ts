/** The mail outbox of a test app (DATA_DIR/outbox/*.eml), read as a customer's mail client would. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The outbox's messages, oldest first. */
export function outbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(path.join(dir, f), 'utf8'));
}

/** A quoted-printable e-mail body as text (soft line breaks joined, =XX decoded). */
export function decoded(eml: string): string {
  return eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
