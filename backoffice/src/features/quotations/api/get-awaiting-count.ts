import { queryOptions, useQuery } from '@tanstack/react-query';
import { QUOTATION_ROUTES } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { looseApi } from '../../../lib/api-client';
import { quotationKeys } from '../../../lib/quotation-keys';

export const getAwaitingCount = () =>
  unwrap(looseApi.GET<{ count: number }>(QUOTATION_ROUTES.awaitingCount));

/** How many quotations wait for the shop to price them (the dashboard's tile). */
export const useAwaitingShopCount = () =>
  useQuery(queryOptions({ queryKey: quotationKeys.awaitingCount(), queryFn: getAwaitingCount }));
