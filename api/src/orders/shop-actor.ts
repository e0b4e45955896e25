import type { SystemActor } from '../common/principal';

/** Who the audit trail names for what the shop does by itself (cancelling unpaid orders). */
export const SHOP_ACTOR: SystemActor = {
  id: 'shop',
  role: 'system',
  fullName: 'The shop (automatic)',
};
