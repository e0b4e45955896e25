import { ConflictException, ForbiddenException } from '@nestjs/common';
import {
  QUOTATION_MESSAGES as QM,
  QUOTATION_RULES,
  type QuotationAction,
  type QuotationActor,
  type QuotationStatus,
} from '@spc/shared-contracts';
import type { Principal } from '../common/principal';
import type { QuotationStanding } from './quotation-access';
import type { QuotationRecord } from './quotation-record';
import { storedFor } from './quotations.repository';

/** The caller as the rules table names them. */
export function actorOf(actor: Principal, standing: QuotationStanding): QuotationActor {
  return standing.shop ? (actor.role as 'staff' | 'admin') : standing.role;
}

export const illegal = (action: QuotationAction) =>
  new ConflictException({ message: QUOTATION_RULES[action].refused, code: 'ILLEGAL_TRANSITION' });

/** 403 when the caller may never take this step (the rules' `by`). */
export function requireActor(
  action: QuotationAction,
  actor: Principal,
  standing: QuotationStanding,
): void {
  const by = actorOf(actor, standing);
  if (QUOTATION_RULES[action].by.includes(by)) return;
  if (action === 'accept' || action === 'decline') throw new ForbiddenException(QM.notApprover);
  if (action === 'askChanges')
    throw new ForbiddenException('Changes are asked for by the organisation, in its messages');
  throw new ForbiddenException('Only the shop can send or withdraw a quotation');
}

/** 409 ILLEGAL_TRANSITION when the quotation's status (as read today) is not one it may come from. */
export function requireFrom(action: QuotationAction, status: QuotationStatus): void {
  if (!QUOTATION_RULES[action].from.includes(status)) throw illegal(action);
}

/** The stored statuses a step may come from (`expired` is a stored `sent`). */
export const storedFrom = (action: QuotationAction) => storedFor(QUOTATION_RULES[action].from);

export const quotationTarget = (q: Pick<QuotationRecord, '_id' | 'number'>) => ({
  type: 'quotation',
  id: q._id,
  label: q.number,
});
