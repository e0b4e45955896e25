import type { Role } from '@spc/shared-contracts';

/** A user as the API shows it: no password hash, no internal fields. */
export interface UserView {
  _id: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  role: Role;
  isActive: boolean;
  county: string;
  streetAddress: string;
  profilePicture: string;
  /** Order text messages (SMS) wanted; true unless turned off in the profile. */
  smsNotifications: boolean;
  /** The KRA PIN their receipts are tax invoices to (issue 45); null: none. */
  kraPin: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserWithPassword extends UserView {
  passwordHash: string;
  /** Wrong passwords in a row (at sign-in or a signed-in check), and the lockout they caused. */
  failedLogins?: number;
  lockedUntil?: Date | null;
}

export interface UserListQuery {
  roles: Role[];
  isActive?: boolean;
  search?: string;
  skip: number;
  limit: number;
}

export type UserChanges = Partial<
  Pick<
    UserView,
    | 'fullName'
    | 'email'
    | 'phoneNumber'
    | 'county'
    | 'streetAddress'
    | 'isActive'
    | 'profilePicture'
    | 'smsNotifications'
    | 'kraPin'
  >
> & { profilePictureKeys?: string[] };
