/** The shop's booking settings (deposit share, seasons) and what a booking costs now. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './api-client';
import { readyDay } from './ready-day';

export const bookingKeys = { settings: () => ['bookings', 'settings'] as const };

export const getBookingSettings = () => unwrap(api.GET('/api/bookings/settings'));

/** The deposit share and the seasons (their coming dates); kept a while, they rarely change. */
export const bookingSettingsQueryOptions = () =>
  queryOptions({
    queryKey: bookingKeys.settings(),
    queryFn: getBookingSettings,
    staleTime: 10 * 60_000,
    retry: 1,
  });

/** `enabled` false: a screen that shows them only sometimes does not ask meanwhile. */
export const useBookingSettings = (enabled = true) =>
  useQuery({ ...bookingSettingsQueryOptions(), enabled });

/** "Ready from 12 March: book with a 30 % deposit". */
export const bookOfferText = (readyOn: string, percent: number) =>
  `Ready from ${readyDay(readyOn)}: book with a ${percent} % deposit`;
