import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { TILL_MESSAGES, TILL_PIN_MAX_TRIES } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { CredentialsService } from '../auth/credentials.service';
import type { Principal } from '../common/principal';
import { PasswordHasher } from '../users/password-hasher';
import { UsersService } from '../users/users.service';
import { TillRepository } from './till.repository';

/** Who may hold a till PIN: the shop's people. */
const TILL_ROLES = new Set(['staff', 'admin']);

/**
 * Till PINs (issue 46): a staff member's own short PIN, hashed as passwords are, set with their
 * password; an admin sets (and so unlocks) anyone's. A second person's PIN approves a void or a
 * refund; TILL_PIN_MAX_TRIES wrong tries in a row lock it.
 */
@Injectable()
export class TillPins {
  constructor(
    private readonly repository: TillRepository,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
  ) {}

  /** Sets the caller's own PIN, their password confirming it (400 when wrong). */
  async setOwn(actor: Principal, pin: string, currentPassword: string): Promise<void> {
    if (!(await this.credentials.confirmPassword(actor.id, currentPassword)))
      throw new BadRequestException('Your current password is not correct');
    await this.repository.setPin(actor.id, await this.hasher.hash(pin));
    await this.audit.record(actor, 'till.pin.set', `${actor.fullName} set their till PIN`, {
      type: actor.role,
      id: actor.id,
      label: actor.fullName,
    });
  }

  /** An admin sets another's PIN (which unlocks it). */
  async setFor(actor: Principal, staffId: string, pin: string): Promise<void> {
    const person = await this.users.findById(staffId);
    if (!person || !TILL_ROLES.has(person.role))
      throw new NotFoundException('No staff member with this id');
    await this.repository.setPin(staffId, await this.hasher.hash(pin));
    await this.audit.record(
      actor,
      'till.pin.reset',
      `${actor.fullName} set the till PIN of ${person.fullName}`,
      { type: person.role, id: person._id, label: person.fullName },
    );
  }

  /**
   * The approver of a void or a refund: a staff member or admin other than the seller and the
   * person asking (`byId`), whose PIN this is (403 in TILL_MESSAGES' words otherwise; a wrong try
   * counts toward the lock).
   */
  async approve(
    sellerId: string,
    byId: string,
    approverId: string,
    pin: string,
  ): Promise<{ name: string }> {
    if (approverId === sellerId || approverId === byId)
      throw new ForbiddenException(TILL_MESSAGES.secondPerson);
    const person = await this.users.findById(approverId);
    if (!person || !TILL_ROLES.has(person.role) || !person.isActive)
      throw new ForbiddenException(TILL_MESSAGES.secondPerson);
    await this.check(approverId, pin);
    return { name: person.fullName };
  }

  /** Refuses (403) a PIN that is not set, locked or wrong; a right one clears the count. */
  private async check(staffId: string, pin: string): Promise<void> {
    const stored = await this.repository.findPin(staffId);
    if (!stored) throw new ForbiddenException(TILL_MESSAGES.pinNotSet);
    if (stored.failures >= TILL_PIN_MAX_TRIES)
      throw new ForbiddenException(TILL_MESSAGES.pinLocked);
    if (await this.hasher.verify(stored.hash, pin)) {
      if (await this.repository.clearTries(staffId, stored.hash)) return;
      throw new ForbiddenException(TILL_MESSAGES.pinLocked);
    }
    const tries = await this.repository.countWrongTry(staffId, stored.hash);
    if (tries === null || tries >= TILL_PIN_MAX_TRIES)
      throw new ForbiddenException(TILL_MESSAGES.pinLocked);
    throw new ForbiddenException(TILL_MESSAGES.pinWrong(TILL_PIN_MAX_TRIES - tries));
  }
}
