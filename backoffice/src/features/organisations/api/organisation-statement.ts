import type { StatementView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/invoices';

export interface StatementPeriod {
  /** Days of the shop, YYYY-MM-DD, both included. */
  from: string;
  to: string;
}

/** `GET /api/organisations/:id/statement?format=json`: its invoices, payments and ageing. */
export const getStatement = async (organisationId: string, { from, to }: StatementPeriod) =>
  unwrap(
    looseApi.GET<StatementView>(`/api/organisations/${organisationId}/statement`, {
      params: { query: { from, to, format: 'json' } },
    }),
  );

/** The statement of a period, once one is asked for (null: none yet). */
export const useStatement = (organisationId: string, period: StatementPeriod | null) =>
  useQuery(
    queryOptions({
      queryKey: invoiceKeys.statement(organisationId, period?.from ?? '', period?.to ?? ''),
      queryFn: () => getStatement(organisationId, period!),
      enabled: period !== null,
    }),
  );
