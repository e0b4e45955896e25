import type { Db } from 'mongodb';
import { AUDIT_SIGN_IN_ACTION } from '@spc/shared-contracts';

/** What the sign-ins migration did. */
export interface AuditSignInsMigration {
  /** Entries marked as a customer's sign-in, and as any other entry. */
  signIns: number;
  others: number;
}

/**
 * Gives the entries written before `customerSignIn` was kept their value: true for a customer's
 * sign-in, false for every other (`isCustomerSignIn`, which the API sets on insert). Only entries
 * without it are written, so a second run, or one beside running API instances, changes nothing.
 */
export async function migrateAuditSignIns(db: Db): Promise<AuditSignInsMigration> {
  const logs = db.collection('audit_logs');
  const unmarked = { customerSignIn: { $exists: false } };
  const signIns = await logs.updateMany(
    { ...unmarked, action: AUDIT_SIGN_IN_ACTION, 'performedBy.role': 'customer' },
    { $set: { customerSignIn: true } },
  );
  const others = await logs.updateMany(unmarked, { $set: { customerSignIn: false } });
  return { signIns: signIns.modifiedCount, others: others.modifiedCount };
}
