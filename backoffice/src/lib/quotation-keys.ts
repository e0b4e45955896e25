import type { QuotationStatus } from '@spc/shared-contracts';

/** What a list of quotations is asked by (the quote desk's filters, or one organisation's). */
export interface QuotationsFilter {
  page: number;
  status?: QuotationStatus;
  organisationId?: string;
  search?: string;
}

/**
 * The query keys of quotations: the quote desk and an organisation's page both read and change
 * them, so a change on either refreshes the other.
 */
export const quotationKeys = {
  all: ['quotations'] as const,
  list: (filter: QuotationsFilter) => [...quotationKeys.all, 'list', filter] as const,
  detail: (id: string) => [...quotationKeys.all, 'detail', id] as const,
  awaitingCount: () => [...quotationKeys.all, 'awaiting-shop-count'] as const,
};

export const QUOTATIONS_PAGE_SIZE = 20;
