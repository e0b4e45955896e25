import type { InvoiceFilter } from '@spc/shared-contracts';
import { paths } from '../../config/paths';

/**
 * Where the invoices show in the organisation's area (/user/organisation, as its quotations and
 * deliveries do): the list by filter and page, one invoice, the statement of a period.
 */
export const invoicePaths = {
  list: (filter: InvoiceFilter = 'all', page = 1) =>
    `${paths.myOrganisation}?invoices=${filter}${page > 1 ? `&page=${page}` : ''}`,
  one: (id: string) => `${paths.myOrganisation}?invoice=${encodeURIComponent(id)}`,
  statement: `${paths.myOrganisation}?statement`,
};
