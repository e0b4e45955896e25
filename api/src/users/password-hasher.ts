import { Inject, Injectable } from '@nestjs/common';
import argon2 from 'argon2';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * argon2id, by default with the library's cost (64 MiB, 3 passes): memory-hard, so a stolen hash is
 * slow to guess. The cost is a setting (`PASSWORD_HASH_*`, never under OWASP's floor in production);
 * a hash carries its own cost, so verifying one made under another setting still works.
 */
@Injectable()
export class PasswordHasher {
  private readonly options: { type: typeof argon2.argon2id; memoryCost: number; timeCost: number };
  /** A real hash to verify against when an e-mail is unknown, so a miss takes as long as a hit. */
  private readonly decoy: Promise<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.options = {
      type: argon2.argon2id,
      memoryCost: config.passwordHash.memoryKib,
      timeCost: config.passwordHash.passes,
    };
    this.decoy = argon2.hash('decoy-password-for-timing#1', this.options);
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.options);
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash ?? (await this.decoy), password);
    } catch {
      return false;
    }
  }
}
