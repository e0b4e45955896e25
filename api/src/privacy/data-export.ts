import { Injectable } from '@nestjs/common';
import { formatMoney } from '@spc/shared-contracts';
import type { DataSubject } from '../common/personal-data';
import { PersonalDataOwners } from './personal-data-owners';

type Row = Record<string, unknown>;

/**
 * Everything the shop holds about one person, as one JSON file (issue 31): `summary` (lines a
 * person reads without knowing JSON), then each owner's sections (issue 39). Only what belongs to
 * the person: their account, the orders it placed (or a guest's, found by the proven phone), the
 * messages recorded for them when they were sent; never a record found by an address someone typed.
 */
export interface DataExport {
  summary: string[];
  generatedAt: string;
  account: Row | null;
  deliveryDetails: Row | null;
  orders: Row[];
  payments: Row[];
  refunds: Row[];
  money: Row[];
  smsMessages: Row[];
  emails: Row[];
  /** E-mails queued for them and not sent (yet): waiting, given up, or not needed any more. */
  emailsNotSent: Row[];
  activity: Row[];
  contactMessages: Row[];
  /** The organisation they buy for: their role, and the contacts of it that are them. */
  organisations: Row[];
  /** Invitations to buy for an organisation waiting for them. */
  organisationInvitations: Row[];
  /** Quotations they asked for, accepted or wrote in, with their own messages. */
  quotations: Row[];
  /** Scanned papers they attached to their organisation's orders (what and when; not the papers). */
  scannedDocuments: Row[];
  consents: { granted: boolean; history: unknown[] } | null;
  dataRequests: Row[];
}

const list = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);

@Injectable()
export class DataExportBuilder {
  constructor(private readonly owners: PersonalDataOwners) {}

  async build(subject: DataSubject): Promise<DataExport> {
    const sections = await this.owners.export(subject);
    const account = (sections.account as Row | null | undefined) ?? null;
    const consents = (sections.consents as DataExport['consents'] | undefined) ?? null;
    const data: DataExport = {
      summary: [],
      generatedAt: new Date().toISOString(),
      account,
      deliveryDetails: (sections.deliveryDetails as Row | null | undefined) ?? null,
      orders: list(sections.orders),
      payments: list(sections.payments),
      refunds: list(sections.refunds),
      money: list(sections.money),
      smsMessages: list(sections.smsMessages),
      emails: list(sections.emails),
      emailsNotSent: list(sections.emailsNotSent),
      activity: list(sections.activity),
      contactMessages: list(sections.contactMessages),
      organisations: list(sections.organisations),
      organisationInvitations: list(sections.organisationInvitations),
      quotations: list(sections.quotations),
      scannedDocuments: list(sections.scannedDocuments),
      consents,
      dataRequests: list(sections.dataRequests),
    };
    data.summary = summaryOf(data);
    return data;
  }
}

function summaryOf(d: DataExport): string[] {
  const a = d.account as {
    fullName?: string;
    email?: string;
    phoneNumber?: string;
    createdAt?: string;
  } | null;
  const kinds = (kind: string) => d.payments.filter((p) => p.kind === kind).length;
  return [
    'This file holds everything the shop keeps about you, as of the date below.',
    a
      ? `Account: ${a.fullName}, ${a.email}, phone ${a.phoneNumber || 'none'}, since ${String(a.createdAt ?? '').slice(0, 10)}.`
      : 'No account: these are the orders given with your phone number.',
    `Orders: ${d.orders.length}${d.orders.length ? ` (${d.orders.map((o) => `${String(o.purchaseNumber)} ${formatMoney(Number(o.totalAmount))} ${String(o.orderStatus)}`).join('; ')})` : ''}.`,
    `Payments: ${kinds('payment')}; paybill payments: ${kinds('mpesa-paybill')}; M-Pesa prompts: ${kinds('mpesa-prompt')}; refunds: ${d.refunds.length}.`,
    `Text messages sent to you: ${d.smsMessages.length}. E-mails sent to you: ${d.emails.length}.`,
    d.organisations.length
      ? `You buy for: ${d.organisations.map((o) => `${String(o.organisation)} (${String(o.role)})`).join('; ')}.`
      : 'You buy for no organisation.',
    ...(d.quotations.length
      ? [
          `Quotations you asked for, accepted or wrote in: ${d.quotations.map((q) => String(q.number)).join(', ')}.`,
        ]
      : []),
    ...(d.scannedDocuments.length
      ? [
          `Scanned papers you attached to your organisation's orders: ${d.scannedDocuments.length} (the papers are your organisation's; ask it for them).`,
        ]
      : []),
    d.consents && d.consents.history.length
      ? `Offers by text message: ${d.consents.granted ? 'you agreed' : 'you did not agree, or withdrew'} (${d.consents.history.length} change${d.consents.history.length === 1 ? '' : 's'} recorded).`
      : 'Offers by text message: you never agreed to them.',
  ];
}
