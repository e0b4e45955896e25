import { Injectable, NotFoundException } from '@nestjs/common';
import {
  INVOICE_MESSAGES as IM,
  PAGE_SIZE,
  type InvoiceListResponse,
  type InvoicePaymentKind,
  type InvoiceView,
} from '@spc/shared-contracts';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import { shopDay } from '../common/shop-clock';
import { TrancheOrders } from '../orders/tranche-orders';
import { OrganisationsService } from '../organisations/organisations.service';
import type { InvoiceListQueryDto } from './dto/invoice.dto';
import { InvoicesRepository, type InvoiceRecord } from './invoices.repository';

const DAY_MS = 24 * 3600_000;

/** Whole days from one shop day (YYYY-MM-DD) to another. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

const byOf = (s: { byId: string; byName: string; byRole: string }) =>
  s.byId || s.byName ? { fullName: s.byName, role: s.byRole } : null;

/**
 * An invoice as the API answers it (`InvoiceView` of shared-contracts): overdue while open past
 * its due date, the shop's day `today`; its payments and credit notes from its settlements.
 */
export function invoiceView(i: InvoiceRecord, today = shopDay(new Date())): InvoiceView {
  const late = i.state === 'Open' ? Math.max(0, daysBetween(i.dueDate, today)) : 0;
  return {
    id: i._id,
    number: i.number ?? '',
    state: i.state,
    organisation: { id: i.organisationId, name: i.organisationName, kraPin: i.organisationKraPin },
    shop: { name: i.shopName, kraPin: i.shopKraPin },
    orderId: i.orderId,
    purchaseNumber: i.purchaseNumber,
    lpoNumber: i.lpoNumber,
    tranche: i.tranche,
    lines: i.lines.map((l) => ({
      line: l.line,
      productName: l.productName,
      unitName: l.unitName,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      amount: l.amount,
    })),
    fee: i.fee,
    total: i.total,
    issuedAt: new Date(i.issuedAt).toISOString(),
    dueDate: i.dueDate,
    paid: i.paid,
    withheld: i.withheld,
    credited: i.credited,
    balance: i.balance,
    excess: i.excess,
    overdue: late > 0,
    daysOverdue: late,
    payments: i.settlements
      .filter((s) => s.kind !== 'creditNote')
      .map((s) => ({
        id: s.id,
        kind: s.kind as InvoicePaymentKind,
        amount: s.amount,
        reference: s.reference,
        at: new Date(s.at).toISOString(),
        excess: s.excess ?? 0,
        by: byOf(s),
      })),
    creditNotes: i.settlements
      .filter((s) => s.kind === 'creditNote')
      .map((s) => ({
        id: s.id,
        number: s.number ?? '',
        reason: s.reason!,
        amount: s.amount,
        note: s.note,
        at: new Date(s.at).toISOString(),
        by: byOf(s),
      })),
    reminders: i.reminders.map((r) => ({ kind: r.kind, at: new Date(r.at).toISOString() })),
  };
}

const isShop = (actor: Principal) => actor.role === 'staff' || actor.role === 'admin';
const noInvoice = () => new NotFoundException({ message: IM.notFound, code: 'NOT_FOUND' });
const noOrder = () =>
  new NotFoundException({ message: 'No order with this id', code: 'NOT_FOUND' });

/**
 * Who reads which invoices: staff and admins every one; an organisation's people (any role) their
 * own organisation's, and 404 in the same words for any other (as a missing id). What the other
 * invoice modules load an invoice for a caller through (`readable`).
 */
@Injectable()
export class InvoiceViews {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly orgs: OrganisationsService,
    private readonly orders: TrancheOrders,
  ) {}

  /** The organisation whose invoices the caller reads: null for the shop (every one). */
  private async scope(actor: Principal): Promise<{ organisationId: string | null } | null> {
    if (isShop(actor)) return { organisationId: null };
    const id = await this.orgs.organisationIdOf(actor.id);
    return id ? { organisationId: id } : null;
  }

  /** The invoice, for a caller who may read it; else 404 'Invoice not found'. */
  async readable(actor: Principal, id: string): Promise<InvoiceRecord> {
    const [invoice, scope] = await Promise.all([this.invoices.find(id), this.scope(actor)]);
    if (!invoice || !scope) throw noInvoice();
    if (scope.organisationId !== null && scope.organisationId !== invoice.organisationId)
      throw noInvoice();
    return invoice;
  }

  async one(actor: Principal, id: string): Promise<InvoiceView> {
    return invoiceView(await this.readable(actor, id));
  }

  /** The shop's list (every organisation's, or one's); an organisation's people's: their own. */
  async list(actor: Principal, query: InvoiceListQueryDto): Promise<InvoiceListResponse> {
    const { page, limit, skip } = pageRequest(query, PAGE_SIZE.orders);
    const filter = query.filter ?? 'all';
    const scope = await this.scope(actor);
    const empty = { invoices: [], total: 0, page, pages: 0, owed: 0 };
    if (!scope) return empty;
    let organisationId = query.organisationId;
    if (scope.organisationId !== null) {
      if (organisationId && organisationId !== scope.organisationId) return empty;
      organisationId = scope.organisationId;
    }
    const today = shopDay(new Date());
    const { items, total, owed } = await this.invoices.list(
      { filter, organisationId, today },
      skip,
      limit,
    );
    return {
      invoices: items.map((i) => invoiceView(i, today)),
      total,
      page,
      pages: totalPages(total, limit),
      owed,
    };
  }

  /**
   * An order's invoices: the shop any order's; an organisation's people their organisation's
   * orders'. Any other order: 404, as a missing one.
   */
  async ofOrder(actor: Principal, orderId: string): Promise<InvoiceView[]> {
    const order = await this.orders.find(orderId);
    if (!order) throw noOrder();
    if (!isShop(actor)) {
      const organisationId = await this.orgs.organisationIdOf(actor.id);
      if (!order.quotation || organisationId !== order.quotation.organisationId) throw noOrder();
    }
    const today = shopDay(new Date());
    return (await this.invoices.ofOrder(order._id)).map((i) => invoiceView(i, today));
  }
}
