import type { Role } from '@spc/shared-contracts';

/** Who is calling: taken from the verified access token (and checked against the account). */
export interface Principal {
  id: string;
  role: Role;
  fullName: string;
}
