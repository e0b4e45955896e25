import type { components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { env } from '../config/env';
import { api, unwrap } from './api-client';

export type ShopContacts = components['schemas']['ShopContactsDto'];

export const getShopContacts = () => unwrap(api.GET('/api/site/contacts'));

export const shopContactsQueryOptions = () =>
  queryOptions({
    queryKey: ['site', 'contacts'] as const,
    queryFn: getShopContacts,
    staleTime: 60 * 60_000,
  });

/** `254712345678` shown as `+254 712 345 678`. */
const showInternational = (digits: string) =>
  digits.length === 12
    ? `+${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)} ${digits.slice(9)}`
    : `+${digits}`;

/**
 * The shop's phone, WhatsApp number and e-mail as the API's settings give them; the build-time
 * values meanwhile (and if the API cannot be reached), so the page never shows a gap.
 */
export function useShopContacts(): {
  phone: string;
  whatsapp: string;
  whatsappDigits: string;
  email: string;
} {
  const { data } = useQuery(shopContactsQueryOptions());
  const c = data?.contacts;
  if (!c) {
    return {
      phone: env.shopPhone,
      whatsapp: env.shopWhatsapp,
      whatsappDigits: env.shopWhatsapp.replace(/\D/g, ''),
      email: env.shopEmail,
    };
  }
  return {
    phone: c.phone,
    whatsapp: showInternational(c.whatsapp),
    whatsappDigits: c.whatsapp,
    email: c.email,
  };
}
