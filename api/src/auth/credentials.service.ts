import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { passwordRuleFor, type Role } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { canonicalEmail } from '../common/identifiers';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PasswordHasher } from '../users/password-hasher';
import type { UserView, UserWithPassword } from '../users/user.types';
import { UsersRepository } from '../users/users.repository';
import { lockSeconds, refuseWhileLocked } from './login-lockout';

/**
 * Passwords: checking one at sign-in or for a signed-in step (with the lockout), changing one,
 * setting one after a reset.
 */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The account when the e-mail and password match; null otherwise (same time either way). After
   * LOGIN_LOCKOUT_AFTER_FAILURES wrong passwords in a row the account's sign-in is locked, for
   * LOGIN_LOCKOUT_BASE_SECONDS and twice as long after each further wrong one (at most an hour); a
   * locked sign-in is refused with 429 and Retry-After before any password is checked.
   */
  async verifyCredentials(email: string, password: string): Promise<UserView | null> {
    const user = await this.users.findByEmailWithPassword(canonicalEmail(email));
    const matches = await this.passwordMatches(user, password);
    if (!user || !matches) return null;
    const { passwordHash: _, failedLogins: _f, lockedUntil: _l, ...view } = user;
    return view;
  }

  /**
   * Is this the signed-in account's password? For the steps a password confirms (changing it,
   * deleting the account): the sign-in's lockout counts these tries too, so a stolen session
   * cannot guess the password here, and a locked account is refused (429) before any hash.
   */
  async confirmPassword(accountId: string, password: string): Promise<boolean> {
    return this.passwordMatches(await this.users.findByIdWithPassword(accountId), password);
  }

  /**
   * One password check under the lockout (a hash whether or not the account exists): refused while
   * locked; a wrong password counts toward the lock, a right one clears the count.
   */
  private async passwordMatches(user: UserWithPassword | null, password: string): Promise<boolean> {
    const now = Date.now();
    refuseWhileLocked(user?.lockedUntil, now);
    const ok = await this.hasher.verify(user?.passwordHash, password);
    if (!user) return false;
    if (!ok) {
      const failures = await this.users.recordFailedLogin(user._id);
      const seconds = lockSeconds(failures, this.config.loginLockout);
      if (seconds !== null) await this.users.lockLogin(user._id, new Date(now + seconds * 1000));
      return false;
    }
    if (user.failedLogins) await this.users.clearFailedLogins(user._id);
    return true;
  }

  async changePassword(
    actor: Principal,
    currentPassword: string,
    newPassword: string,
  ): Promise<void> {
    const user = await this.users.findByIdWithPassword(actor.id);
    if (!user) throw new NotFoundException('No account with this id');
    if (!(await this.passwordMatches(user, currentPassword))) {
      throw new BadRequestException('Your current password is not correct');
    }
    if (currentPassword === newPassword) {
      throw new BadRequestException('The new password must be different from the current one');
    }
    this.checkPasswordFor(user.role, newPassword);
    await this.users.setPasswordHash(actor.id, await this.hasher.hash(newPassword));
    if (actor.role !== 'customer') {
      await this.audit.record(
        actor,
        'auth.password.change',
        `${actor.fullName} changed their password`,
        {
          type: actor.role,
          id: actor.id,
          label: user.email,
        },
      );
    }
  }

  /** Sets a new password, refusing (400) one too weak for the account's role. */
  async setPassword(id: string, newPassword: string): Promise<void> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundException('No account with this id');
    this.checkPasswordFor(user.role, newPassword);
    await this.users.setPasswordHash(id, await this.hasher.hash(newPassword));
  }

  /** Refuses (400) a password too weak for this role, before anything is used up. */
  checkPasswordFor(role: Role, password: string): void {
    const rule = passwordRuleFor(role);
    if (!rule.pattern.test(password)) throw new BadRequestException(rule.message);
  }
}
