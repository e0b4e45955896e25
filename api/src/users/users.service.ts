import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { LIMITS, PAGE_SIZE, VALIDATION_MESSAGES, type Role } from '@spc/shared-contracts';
import { ModuleRef } from '@nestjs/core';
import { AuditService } from '../audit/audit.service';
import { ACCOUNT_ERASURE, ANONYMOUS_NAME, type AccountErasure } from '../common/personal-data';
import { canonicalEmail } from '../common/identifiers';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { pageRequest, totalPages } from '../common/pagination';
import { assertBodyIdMatches } from '../common/parse-object-id.pipe';
import type { Principal } from '../common/principal';
import type {
  UpdateAdminProfileDto,
  UpdateProfileDto,
  UpdateUserDto,
  UserListQueryDto,
} from './dto/user.dto';
import { PasswordHasher } from './password-hasher';
import { ProfilePicturesService } from './profile-pictures.service';
import type { UserChanges, UserView } from './user.types';
import { UsersRepository } from './users.repository';

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this e-mail already exists';

export const DEACTIVATED_MESSAGE = 'Your account has been deactivated. Please contact the shop.';
const OWN_FIELDS_ONLY =
  'You can change only your own name, phone number, county and street address';

export interface NewAccount {
  fullName: string;
  email: string;
  phoneNumber: string;
  password: string;
  role: Role;
  county?: string;
  streetAddress?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  totalPages: number;
  page: number;
}

const ROLE_NOUN: Record<Role, string> = { admin: 'admin', staff: 'staff member', customer: 'user' };

/**
 * Accounts of every role: who they are and what they may change. Passwords and the sign-in lockout
 * are auth/credentials.service.ts; profile pictures are profile-pictures.service.ts.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditService,
    private readonly pictures: ProfilePicturesService,
    /** Finds the privacy module's erasure when a customer is deleted (it builds on this module). */
    private readonly moduleRef: ModuleRef,
  ) {}

  async createAccount(input: NewAccount): Promise<UserView> {
    try {
      return await this.users.create({
        fullName: input.fullName,
        email: canonicalEmail(input.email),
        phoneNumber: input.phoneNumber,
        passwordHash: await this.hasher.hash(input.password),
        role: input.role,
        county: input.county ?? '',
        streetAddress: input.streetAddress ?? '',
      });
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw new ConflictException({ message: DUPLICATE_EMAIL_MESSAGE, code: 'EMAIL_TAKEN' });
      throw error;
    }
  }

  async get(id: string, role?: Role): Promise<UserView> {
    const user = await this.users.findById(id);
    if (!user || (role && user.role !== role)) {
      throw new NotFoundException(`No ${role ? ROLE_NOUN[role] : 'account'} with this id`);
    }
    return user;
  }

  /** Admin reads anyone; everyone else only themselves. */
  async getFor(actor: Principal, id: string): Promise<UserView> {
    if (actor.role !== 'admin' && actor.id !== id) {
      throw new ForbiddenException('You can only view your own account');
    }
    return this.get(id);
  }

  /** The account behind a token, or null when it no longer exists. */
  findById(id: string): Promise<UserView | null> {
    return this.users.findById(id);
  }

  /** Accounts by id (for joining names into lists); unknown ids are left out. */
  findManyByIds(ids: string[]): Promise<UserView[]> {
    return ids.length ? this.users.findManyByIds(ids) : Promise.resolve([]);
  }

  /** Accounts' names by id, for a long list (an export) that shows nothing else of them. */
  namesOf(ids: string[]): Promise<Map<string, string>> {
    return ids.length ? this.users.namesOf(ids) : Promise.resolve(new Map());
  }

  /** A customer's checkout details become their saved delivery details. */
  async updateDeliveryDetails(
    id: string,
    info: { fullName: string; phoneNumber: string; county: string; streetAddress: string },
  ): Promise<void> {
    // Not to an account closed meanwhile: an order placed as it was deleted brings nothing back.
    await this.users.updateOpen(id, {
      fullName: info.fullName,
      phoneNumber: info.phoneNumber,
      county: info.county,
      streetAddress: info.streetAddress,
    });
  }

  isClosed(id: string): Promise<boolean> {
    return this.users.isClosed(id);
  }

  findByEmail(email: string): Promise<UserView | null> {
    return this.users.findByEmail(canonicalEmail(email));
  }

  tokenVersion(id: string): Promise<number> {
    return this.users.tokenVersion(id);
  }

  findSession(id: string): Promise<{ user: UserView; tokenVersion: number } | null> {
    return this.users.findSession(id);
  }

  async list(roles: Role[], query: UserListQueryDto, isActive?: boolean): Promise<Page<UserView>> {
    const { page, limit, skip } = pageRequest(query, PAGE_SIZE.users);
    const search = query.search?.trim() || undefined;
    const { items, total } = await this.users.list({ roles, isActive, search, skip, limit });
    return { items, total, totalPages: totalPages(total, limit), page };
  }

  /** The e-mail addresses of every active staff member and admin (the shop's alerts go there). */
  async staffEmails(): Promise<string[]> {
    const emails: string[] = [];
    for (let page = 1; ; page += 1) {
      const result = await this.list(['staff', 'admin'], { page, limit: 100 }, true);
      emails.push(...result.items.map((user) => user.email));
      if (page >= result.totalPages) break;
    }
    return [...new Set(emails)];
  }

  /** `PATCH /api/user/update/:id`: admin edits a customer; a person edits their own record. */
  async updateUser(actor: Principal, id: string, body: UpdateUserDto): Promise<UserView> {
    assertBodyIdMatches(body._id, id);
    const target = await this.get(id);
    const changes: UserChanges = { ...body.updatedUser };

    if (actor.id === id) {
      if (changes.email !== undefined && changes.email !== target.email)
        throw new ForbiddenException(OWN_FIELDS_ONLY);
      delete changes.email;
    } else if (actor.role === 'admin') {
      if (target.role !== 'customer') {
        throw new BadRequestException(
          target.role === 'staff'
            ? 'Edit staff members through the staff endpoints'
            : 'Edit your own profile through /api/admin/profile',
        );
      }
      // The back office's user form allows 10 characters.
      if (changes.phoneNumber && changes.phoneNumber.length > LIMITS.staffPhoneMaxLength) {
        throw new BadRequestException(VALIDATION_MESSAGES.phoneInvalid);
      }
    } else {
      throw new ForbiddenException('You can only update your own account');
    }

    const updated = await this.applyChanges(id, changes);
    if (actor.role !== 'customer') {
      await this.audit.record(
        actor,
        actor.id === id ? 'profile.update' : 'user.update',
        `${actor.fullName} updated ${actor.id === id ? 'their own record' : `user ${updated.fullName} (${updated.email})`}`,
        {
          type: 'user',
          id,
          label: updated.fullName,
        },
      );
    }
    return updated;
  }

  async updateProfile(actor: Principal, dto: UpdateProfileDto): Promise<UserView> {
    const { kraPin, ...fields } = dto;
    // The PIN given (empty: none, kept as null); left out or null, unchanged.
    const pin = typeof kraPin === 'string' ? { kraPin: kraPin || null } : {};
    const updated = await this.applyChanges(actor.id, fields, pin);
    if (actor.role !== 'customer') {
      await this.audit.record(actor, 'profile.update', `${actor.fullName} updated their profile`, {
        type: actor.role,
        id: actor.id,
        label: updated.email,
      });
    }
    return updated;
  }

  async updateAdminProfile(actor: Principal, dto: UpdateAdminProfileDto): Promise<UserView> {
    const updated = await this.applyChanges(actor.id, { ...dto });
    await this.audit.record(
      actor,
      'profile.update',
      `${actor.fullName} updated their admin profile`,
      {
        type: 'admin',
        id: actor.id,
        label: updated.email,
      },
    );
    return updated;
  }

  /** Staff endpoints: change a staff member's name, e-mail or phone. */
  async updateStaff(actor: Principal, id: string, changes: UserChanges): Promise<UserView> {
    await this.get(id, 'staff');
    const updated = await this.applyChanges(id, changes);
    await this.audit.record(
      actor,
      'staff.update',
      `${actor.fullName} updated staff member ${updated.fullName} (${updated.email})`,
      {
        type: 'staff',
        id,
        label: updated.fullName,
      },
    );
    return updated;
  }

  /** Deactivate (soft delete) or restore; a deactivated account cannot sign in or refresh. */
  async setActive(
    actor: Principal,
    id: string,
    role: Role,
    active: boolean,
  ): Promise<{ user: UserView; changed: boolean }> {
    const target = await this.get(id, role);
    if (target._id === actor.id)
      throw new ConflictException('You cannot deactivate or restore your own account');
    if (target.isActive === active) return { user: target, changed: false };
    const user = (await this.users.update(id, { isActive: active }))!;
    const verb = active ? 'restored' : 'deactivated';
    await this.audit.record(
      actor,
      `${role === 'staff' ? 'staff' : 'user'}.${active ? 'restore' : 'deactivate'}`,
      `${actor.fullName} ${verb} ${ROLE_NOUN[role]} ${user.fullName} (${user.email})`,
      {
        type: role === 'staff' ? 'staff' : 'user',
        id,
        label: user.fullName,
      },
    );
    return { user, changed: true };
  }

  /**
   * Deletes an account for good. A customer goes through the same erasure as their own "delete my
   * account" (every owner of personal data forgets them; refused with 409 `ORDERS_OPEN` while an
   * order is open), then the closed record goes too; the trail names them no more.
   */
  async remove(actor: Principal, id: string, role: Role): Promise<UserView> {
    const target = await this.get(id, role);
    if (target._id === actor.id) throw new ConflictException('You cannot delete your own account');
    const kept =
      role === 'customer'
        ? await this.moduleRef
            .get<AccountErasure<UserView>>(ACCOUNT_ERASURE, { strict: false })
            .eraseAccount(target, 'admin-deleted')
        : 0;
    const keys = await this.pictures.keysOf(id);
    const deleted = await this.users.delete(id);
    if (!deleted) throw new NotFoundException(`No ${ROLE_NOUN[role]} with this id`);
    await this.pictures.discard(keys);
    await this.audit.record(
      actor,
      `${role === 'staff' ? 'staff' : 'user'}.delete`,
      role === 'customer'
        ? `${actor.fullName} deleted a customer; ${kept} order(s) kept without their contacts`
        : `${actor.fullName} deleted ${ROLE_NOUN[role]} ${deleted.fullName} (${deleted.email})`,
      {
        type: role === 'staff' ? 'staff' : 'user',
        id,
        label: role === 'customer' ? ANONYMOUS_NAME : deleted.fullName,
      },
    );
    return deleted;
  }

  /** Creates the first admin when none exists; true when it did. */
  async ensureAdmin(admin: { email: string; password: string }): Promise<boolean> {
    if (await this.users.existsWithRole('admin')) return false;
    try {
      await this.createAccount({
        fullName: 'Shop Admin',
        email: admin.email,
        phoneNumber: '',
        password: admin.password,
        role: 'admin',
      });
      return true;
    } catch (error) {
      if (error instanceof ConflictException) {
        if (await this.users.existsWithRole('admin')) return false; // another instance was first
        throw new Error(
          `ADMIN_EMAIL ${admin.email} already belongs to a non-admin account; choose another address`,
        );
      }
      throw error;
    }
  }

  /** `changes`, less those left out or null; `cleared`: fields set as they are, null too. */
  private async applyChanges(
    id: string,
    changes: UserChanges,
    cleared: UserChanges = {},
  ): Promise<UserView> {
    // An optional field sent as null is not given (its validators skipped it): it changes nothing.
    const given = {
      ...(Object.fromEntries(
        Object.entries(changes).filter(([, value]) => value !== null && value !== undefined),
      ) as UserChanges),
      ...cleared,
    };
    try {
      const updated = await this.users.update(id, given);
      if (!updated) throw new NotFoundException('No account with this id');
      return updated;
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw new ConflictException({ message: DUPLICATE_EMAIL_MESSAGE, code: 'EMAIL_TAKEN' });
      throw error;
    }
  }
}
