import { loadConfig } from '../config/app-config';
import { PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const hasherAt = (memoryKib: string, passes: string) =>
    new PasswordHasher(
      loadConfig({ PASSWORD_HASH_MEMORY_KIB: memoryKib, PASSWORD_HASH_PASSES: passes }),
    );

  it('makes hashes at the cost it is set to, and verifies one made at another cost', async () => {
    const cheap = hasherAt('1024', '1');
    const costly = hasherAt('19456', '2');
    const made = await cheap.hash('Seedling#2026');
    expect(made).toMatch(/^\$argon2id\$v=19\$m=1024,p=4,t=1\$/);
    expect(await costly.hash('x')).toMatch(/^\$argon2id\$v=19\$m=19456,p=4,t=2\$/);
    expect(await costly.verify(made, 'Seedling#2026')).toBe(true);
    expect(await costly.verify(made, 'seedling#2026')).toBe(false);
    expect(await costly.verify(undefined, 'Seedling#2026')).toBe(false);
  });
});
