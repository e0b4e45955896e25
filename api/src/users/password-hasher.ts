import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes): memory-hard, so a stolen hash is slow to guess. */
@Injectable()
export class PasswordHasher {
  /** A real hash to verify against when an e-mail is unknown, so a miss takes as long as a hit. */
  private readonly decoy = argon2.hash('decoy-password-for-timing#1', { type: argon2.argon2id });

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash ?? (await this.decoy), password);
    } catch {
      return false;
    }
  }
}
