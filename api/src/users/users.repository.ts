import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import type { Role } from '@spc/shared-contracts';
import { escapeRegExp } from '../common/pagination';
import { User } from './schemas/user.schema';
import type { UserChanges, UserListQuery, UserView, UserWithPassword } from './user.types';

type LeanUser = User & { _id: { toString(): string } };

function toView(doc: LeanUser): UserView {
  return {
    _id: doc._id.toString(),
    fullName: doc.fullName,
    email: doc.email,
    phoneNumber: doc.phoneNumber ?? '',
    role: doc.role,
    isActive: doc.isActive !== false,
    county: doc.county ?? '',
    streetAddress: doc.streetAddress ?? '',
    profilePicture: doc.profilePicture ?? '',
    smsNotifications: doc.smsNotifications !== false,
    kraPin: doc.kraPin ?? null,
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
  };
}

/** The only place that touches the users collection; returns plain views, never documents. */
@Injectable()
export class UsersRepository {
  constructor(@InjectModel(User.name) private readonly users: Model<User>) {}

  async create(
    data: Omit<
      User,
      | 'createdAt'
      | 'updatedAt'
      | 'profilePictureKeys'
      | 'profilePicture'
      | 'isActive'
      | 'tokenVersion'
      | 'failedLogins'
      | 'lockedUntil'
      | 'smsNotifications'
    > & { isActive?: boolean },
  ): Promise<UserView> {
    const doc = await this.users.create(data);
    return toView(doc.toObject() as LeanUser);
  }

  async findById(id: string): Promise<UserView | null> {
    const doc = await this.users.findById(id).lean<LeanUser>();
    return doc ? toView(doc) : null;
  }

  /** The names of these accounts, by id (unknown ids are left out): the name and nothing else. */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    const docs = await this.users
      .find({ _id: { $in: ids } })
      .select({ fullName: 1 })
      .lean<{ _id: { toString(): string }; fullName: string }[]>();
    return new Map(docs.map((d) => [d._id.toString(), d.fullName]));
  }

  async findManyByIds(ids: string[]): Promise<UserView[]> {
    const docs = await this.users.find({ _id: { $in: ids } }).lean<LeanUser[]>();
    return docs.map(toView);
  }

  async findByEmail(email: string): Promise<UserView | null> {
    const doc = await this.users.findOne({ email }).lean<LeanUser>();
    return doc ? toView(doc) : null;
  }

  async findByEmailWithPassword(email: string): Promise<UserWithPassword | null> {
    const doc = await this.users
      .findOne({ email })
      .select('+passwordHash +failedLogins +lockedUntil')
      .lean<LeanUser>();
    return doc
      ? {
          ...toView(doc),
          passwordHash: doc.passwordHash,
          failedLogins: doc.failedLogins ?? 0,
          lockedUntil: doc.lockedUntil ?? null,
        }
      : null;
  }

  /** Ids of the accounts whose phone is one of these spellings. */
  async idsWithPhone(spellings: string[]): Promise<string[]> {
    const docs = await this.users
      .find({ phoneNumber: { $in: spellings } })
      .select({ _id: 1 })
      .lean<{ _id: { toString(): string } }[]>();
    return docs.map((d) => d._id.toString());
  }

  async findByIdWithPassword(id: string): Promise<UserWithPassword | null> {
    const doc = await this.users
      .findById(id)
      .select('+passwordHash +failedLogins +lockedUntil')
      .lean<LeanUser>();
    return doc
      ? {
          ...toView(doc),
          passwordHash: doc.passwordHash,
          failedLogins: doc.failedLogins ?? 0,
          lockedUntil: doc.lockedUntil ?? null,
        }
      : null;
  }

  async pictureKeys(id: string): Promise<string[]> {
    const doc = await this.users.findById(id).select('+profilePictureKeys').lean<LeanUser>();
    return doc?.profilePictureKeys ?? [];
  }

  async list(query: UserListQuery): Promise<{ items: UserView[]; total: number }> {
    // One role as an equality, so role and isActive are a prefix of {role, isActive, createdAt}.
    const filter: FilterQuery<User> = { role: oneOrAny(query.roles) };
    if (query.isActive !== undefined) filter.isActive = query.isActive;
    if (query.search) {
      const pattern = new RegExp(escapeRegExp(query.search), 'i');
      filter.$or = [{ fullName: pattern }, { email: pattern }];
    }
    const [docs, total] = await Promise.all([
      this.users
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip(query.skip)
        .limit(query.limit)
        .lean<LeanUser[]>(),
      this.users.countDocuments(filter),
    ]);
    return { items: docs.map(toView), total };
  }

  async count(roles: Role[], isActive?: boolean): Promise<number> {
    return this.users.countDocuments({
      role: oneOrAny(roles),
      ...(isActive === undefined ? {} : { isActive }),
    });
  }

  /** Changes an account that is not closed (a closed one takes no details back; issue 39). */
  async updateOpen(id: string, changes: UserChanges): Promise<boolean> {
    const res = await this.users.updateOne(
      { _id: id, closedAt: { $exists: false } },
      { $set: changes },
      { runValidators: true, strict: false },
    );
    return res.modifiedCount === 1;
  }

  /** Whether the account was closed (deleted by its person or the admin). */
  async isClosed(id: string): Promise<boolean> {
    const doc = await this.users
      .findOne({ _id: id }, { closedAt: 1 }, { strict: false })
      .lean<{ closedAt?: Date }>();
    return !doc || !!doc.closedAt;
  }

  async update(id: string, changes: UserChanges): Promise<UserView | null> {
    const doc = await this.users
      .findOneAndUpdate({ _id: id }, { $set: changes }, { new: true, runValidators: true })
      .lean<LeanUser>();
    return doc ? toView(doc) : null;
  }

  /** Sets the password and moves the token version on, so earlier access tokens stop working. */
  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    const res = await this.users.updateOne(
      { _id: id },
      { $set: { passwordHash, failedLogins: 0, lockedUntil: null }, $inc: { tokenVersion: 1 } },
    );
    return res.matchedCount === 1;
  }

  async tokenVersion(id: string): Promise<number> {
    const doc = await this.users.findById(id).select('+tokenVersion').lean<LeanUser>();
    return doc?.tokenVersion ?? 0;
  }

  /** The account and its token version, for checking an access token. */
  async findSession(id: string): Promise<{ user: UserView; tokenVersion: number } | null> {
    const doc = await this.users.findById(id).select('+tokenVersion').lean<LeanUser>();
    return doc ? { user: toView(doc), tokenVersion: doc.tokenVersion ?? 0 } : null;
  }

  /** Counts a wrong password; answers how many there have been in a row. */
  async recordFailedLogin(id: string): Promise<number> {
    const doc = await this.users
      .findOneAndUpdate({ _id: id }, { $inc: { failedLogins: 1 } }, { new: true })
      .select('+failedLogins')
      .lean<LeanUser>();
    return doc?.failedLogins ?? 0;
  }

  async lockLogin(id: string, until: Date): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { lockedUntil: until } });
  }

  async clearFailedLogins(id: string): Promise<void> {
    await this.users.updateOne(
      { _id: id, failedLogins: { $ne: 0 } },
      { $set: { failedLogins: 0, lockedUntil: null } },
    );
  }

  async delete(id: string): Promise<UserView | null> {
    const doc = await this.users.findOneAndDelete({ _id: id }).lean<LeanUser>();
    return doc ? toView(doc) : null;
  }

  async existsWithRole(role: Role): Promise<boolean> {
    return (await this.users.exists({ role })) !== null;
  }

  /**
   * Closes an account for good (issue 31): name, phone, e-mail, addresses and picture are replaced,
   * the e-mail by one no one can have (the old one is free for a new, empty account), the password
   * by nothing that can match, and every token stops working.
   */
  async closeAccount(id: string, name: string): Promise<boolean> {
    const res = await this.users.updateOne(
      { _id: id },
      {
        $set: {
          fullName: name,
          email: `deleted-${id}@deleted.invalid`,
          phoneNumber: '',
          county: '',
          streetAddress: '',
          kraPin: null,
          profilePicture: '',
          profilePictureKeys: [],
          passwordHash: 'closed',
          isActive: false,
          smsNotifications: false,
          closedAt: new Date(),
        },
        $inc: { tokenVersion: 1 },
      },
      { strict: false },
    );
    return res.modifiedCount === 1;
  }
}

/** A role condition: an equality for one role, `$in` for several. */
function oneOrAny(roles: Role[]): Role | { $in: Role[] } {
  return roles.length === 1 ? roles[0]! : { $in: roles };
}
