import { ConflictException, Injectable } from '@nestjs/common';
import {
  QUOTATION_LIMITS as L,
  QUOTATION_MESSAGES as QM,
  QUOTATION_RULES,
  QUOTATION_STATUS_LABELS,
  type QuotationAction,
  type QuotationView,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { OrderLpoScans } from '../orders/order-lpo-scans';
import type { Principal } from '../common/principal';
import { QuotaService } from '../common/quota';
import { TooManyRequestsException } from '../common/rate-limit';
import { shopDay } from '../common/shop-clock';
import { QuotationAccess, type QuotationStanding } from './quotation-access';
import type { QuotationRecord } from './quotation-record';
import { illegal, quotationTarget, requireActor, requireFrom, storedFrom } from './quotation-rules';
import { quotationView } from './quotation-views';
import { QuotationsRepository, type NewMessage } from './quotations.repository';

const today = () => shopDay(new Date());

/**
 * The thread and the steps that close or reopen a quotation: messages from either side (the
 * organisation's limited per day), asking for changes (its people), declining (its approvers) and
 * withdrawing (the shop), each from the statuses QUOTATION_RULES allows (else 409) and audited.
 */
@Injectable()
export class QuotationStepsService {
  constructor(
    private readonly quotations: QuotationsRepository,
    private readonly access: QuotationAccess,
    private readonly quota: QuotaService,
    private readonly audit: AuditService,
    private readonly lpoScans: OrderLpoScans,
  ) {}

  private message(actor: Principal, standing: QuotationStanding, text: string): NewMessage {
    return {
      from: standing.shop ? 'shop' : 'organisation',
      authorId: actor.id,
      authorName: actor.fullName,
      text,
      at: new Date(),
    };
  }

  /** The organisation's messages a day (the shop's day), counted for the organisation. */
  private async takeMessageQuota(standing: QuotationStanding, q: QuotationRecord): Promise<void> {
    if (standing.shop) return;
    const claim = await this.quota.take([
      {
        limit: { name: 'quotation-messages', limit: L.messagesPerDay, per: 'day' },
        key: `organisation:${q.organisationId}`,
      },
    ]);
    if (!claim.granted)
      throw new TooManyRequestsException(QM.tooManyMessages, claim.retryAfterSeconds);
  }

  async write(actor: Principal, id: string, text: string): Promise<QuotationView> {
    const { q, standing } = await this.access.load(actor, id);
    if (q.messages.length >= L.messages) throw this.full();
    await this.takeMessageQuota(standing, q);
    const saved = await this.quotations.addMessage(
      id,
      this.message(actor, standing, text),
      L.messages,
    );
    if (!saved) throw this.full();
    await this.audit.record(
      actor,
      'quotation.message',
      `${actor.fullName} wrote on quotation ${q.number} (${standing.shop ? 'the shop' : q.organisationName})`,
      quotationTarget(q),
    );
    const lpoScan = await this.lpoScans.aboutOrder(saved.acceptance?.orderId);
    return quotationView(saved, standing.shop, today(), lpoScan);
  }

  private full() {
    return new ConflictException({
      message: `A quotation holds at most ${L.messages} messages: call the shop`,
      code: 'CONFLICT',
    });
  }

  /** Ask changes (a message, required), decline or withdraw (a reason, optional). */
  async act(
    actor: Principal,
    id: string,
    action: Extract<QuotationAction, 'askChanges' | 'decline' | 'withdraw'>,
    text = '',
  ): Promise<QuotationView> {
    const { q, standing } = await this.access.load(actor, id);
    requireActor(action, actor, standing);
    const day = today();
    requireFrom(action, quotationView(q, standing.shop, day).status);
    if (text) await this.takeMessageQuota(standing, q);
    const rule = QUOTATION_RULES[action];
    const saved = await this.quotations.changeStatus(
      id,
      storedFrom(action),
      rule.to as 'requested' | 'declined' | 'withdrawn',
      action === 'askChanges' ? '' : text,
      text && q.messages.length < L.messages ? this.message(actor, standing, text) : undefined,
    );
    if (!saved) throw illegal(action);
    const verb = { askChanges: 'asked for changes to', decline: 'declined', withdraw: 'withdrew' }[
      action
    ];
    await this.audit.record(
      actor,
      `quotation.${action === 'askChanges' ? 'ask-changes' : action}`,
      `${actor.fullName} ${verb} quotation ${q.number} of ${q.organisationName}: ${QUOTATION_STATUS_LABELS[rule.to]}`,
      quotationTarget(q),
    );
    return quotationView(saved, standing.shop, day);
  }
}
