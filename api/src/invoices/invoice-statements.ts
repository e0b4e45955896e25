import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORGANISATION_MESSAGES as OM,
  SHOP_IDENTITY,
  type StatementView,
} from '@spc/shared-contracts';
import type { Model } from 'mongoose';
import { AuditService } from '../audit/audit.service';
import { isCalendarDay } from '../common/calendar-day';
import type { Principal } from '../common/principal';
import { addDays, shopDay, startOfShopDay } from '../common/shop-clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrganisationsService } from '../organisations/organisations.service';
import { buildStatement, daysBetween, type StatementInvoice } from './invoice-statements-build';
import { statementCsv, statementFilename, statementPdf } from './invoice-statements-files';
import { Invoice } from './schemas/invoice.schema';

/** The longest period one statement covers: two years of days. */
export const STATEMENT_MAX_DAYS = 731;
export const STATEMENT_FORMATS = ['json', 'pdf', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export const STATEMENT_MESSAGES = {
  fromInvalid: 'from must be a real day written YYYY-MM-DD (2000 to 2099)',
  toInvalid: 'to must be a real day written YYYY-MM-DD (2000 to 2099)',
  toAfterToday: (today: string) => `to cannot be after today (${today})`,
  fromAfterTo: 'from must be on or before to',
  tooLong: `A statement covers at most two years (${STATEMENT_MAX_DAYS} days): choose a shorter period`,
  format: `format must be one of: ${STATEMENT_FORMATS.join(', ')}`,
} as const;

/** A statement as a file: its name, type and bytes. */
export interface StatementFile {
  filename: string;
  contentType: string;
  body: Buffer | string;
}

const isShop = (actor: Principal) => actor.role === 'staff' || actor.role === 'admin';

/**
 * Organisations' statements of account (issue 44, docs/invoices.md) and the dashboard's overdue
 * invoices, read from the invoices as stored. The shop reads every organisation's; its people
 * their own (another's answers 404 as a missing one). A file the shop takes out is audited.
 */
@Injectable()
export class InvoiceStatements {
  constructor(
    @InjectModel(Invoice.name) private readonly invoices: Model<Invoice>,
    private readonly orgs: OrganisationsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The period asked for, checked; `from` is the first day of `to`'s month unless given. */
  period(query: { from?: string; to?: string }, now = new Date()): { from: string; to: string } {
    const today = shopDay(now);
    const to = query.to ?? today;
    if (!isCalendarDay(to)) throw new BadRequestException(STATEMENT_MESSAGES.toInvalid);
    const from = query.from ?? `${to.slice(0, 7)}-01`;
    if (!isCalendarDay(from)) throw new BadRequestException(STATEMENT_MESSAGES.fromInvalid);
    if (to > today) throw new BadRequestException(STATEMENT_MESSAGES.toAfterToday(today));
    if (from > to) throw new BadRequestException(STATEMENT_MESSAGES.fromAfterTo);
    if (daysBetween(from, to) + 1 > STATEMENT_MAX_DAYS)
      throw new BadRequestException(STATEMENT_MESSAGES.tooLong);
    return { from, to };
  }

  /** The statement of organisation `id` over the period, for a caller who may read it. */
  async statement(
    actor: Principal,
    id: string,
    query: { from?: string; to?: string },
  ): Promise<StatementView> {
    const org = await this.orgs.findRecord(id);
    const readable =
      !!org &&
      (isShop(actor) || (await this.orgs.membership(actor.id))?.organisation._id === org._id);
    if (!org || !readable) throw new NotFoundException(OM.noOrganisation);
    const { from, to } = this.period(query);
    const invoices = await this.invoices
      .find(
        {
          organisationId: org._id,
          number: { $type: 'string' },
          issuedAt: { $lt: startOfShopDay(addDays(to, 1)) },
        },
        {
          number: 1,
          lpoNumber: 1,
          tranche: 1,
          total: 1,
          issuedAt: 1,
          dueDate: 1,
          excess: 1,
          settlements: 1,
        },
      )
      .sort({ issuedAt: 1, _id: 1 })
      .lean<StatementInvoice[]>()
      .exec();
    return buildStatement(
      {
        organisation: { id: org._id, name: org.name, kraPin: org.kraPin },
        shop: { name: SHOP_IDENTITY.name, kraPin: this.config.shopKraPin ?? '' },
      },
      invoices,
      from,
      to,
    );
  }

  /** The statement as a PDF or CSV file; a file the shop takes out is in the audit trail. */
  async file(
    actor: Principal,
    id: string,
    query: { from?: string; to?: string },
    format: 'pdf' | 'csv',
  ): Promise<StatementFile> {
    const s = await this.statement(actor, id, query);
    const filename = statementFilename(s, format);
    const file: StatementFile =
      format === 'pdf'
        ? {
            filename,
            contentType: 'application/pdf',
            body: await statementPdf(s, {
              phone: this.config.shopContacts.phone,
              email: this.config.shopContacts.email,
              website: this.config.storefrontUrl.replace(/^https?:\/\//, ''),
            }),
          }
        : { filename, contentType: 'text/csv; charset=utf-8', body: statementCsv(s) };
    if (isShop(actor))
      await this.audit.recordExport(
        actor,
        'invoice.statement',
        filename,
        `the statement of ${s.organisation.name} (${s.organisation.kraPin}) from ${s.from} to ${s.to} as ${format.toUpperCase()}`,
      );
    return file;
  }

  /**
   * The dashboard's overdue invoices: those still owing whose due date is before the shop's day
   * of `now`, how many and what they owe.
   */
  async overdueTotals(now = new Date()): Promise<{ count: number; amount: number }> {
    const [row] = await this.invoices
      .aggregate<{ count: number; amount: number }>([
        {
          $match: {
            // Not also "numbered": an invoice is numbered within a minute of being written, long
            // before it can be overdue, and SecantusDB plans a `$type` test here as a full scan.
            state: 'Open',
            dueDate: { $lt: shopDay(now) },
          },
        },
        { $group: { _id: null, count: { $sum: 1 }, amount: { $sum: '$balance' } } },
      ])
      .exec();
    return { count: row?.count ?? 0, amount: row?.amount ?? 0 };
  }
}
