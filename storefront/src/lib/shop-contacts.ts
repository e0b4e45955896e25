import type { components } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './api-client';

export type ShopContacts = components['schemas']['ShopContactsDto'];

export const getShopContacts = () => unwrap(api.GET('/api/site/contacts'));

/** Where the last answer is kept: the same contacts show offline and before the API answers. */
const KEPT = 'shopContacts';

type ContactsAnswer = Awaited<ReturnType<typeof getShopContacts>>;

function kept(): ContactsAnswer | undefined {
  try {
    return (JSON.parse(localStorage.getItem(KEPT) ?? 'null') as ContactsAnswer | null) ?? undefined;
  } catch {
    return undefined;
  }
}

export const shopContactsQueryOptions = () =>
  queryOptions({
    queryKey: ['site', 'contacts'] as const,
    queryFn: async () => {
      const answer = await getShopContacts();
      try {
        localStorage.setItem(KEPT, JSON.stringify(answer));
      } catch {
        // private mode: shown, not kept
      }
      return answer;
    },
    // The kept copy shows at once and is checked with the API on every visit.
    initialData: kept,
    initialDataUpdatedAt: 0,
    staleTime: 60 * 60_000,
  });

/** `254712345678` shown as `+254 712 345 678`. */
const showInternational = (digits: string) =>
  digits.length === 12
    ? `+${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)} ${digits.slice(9)}`
    : `+${digits}`;

/**
 * The shop's phone, WhatsApp number and e-mail: the API's settings are their one source (the
 * copy last received while the API cannot be reached); undefined until the API has answered once.
 */
export function useShopContacts():
  { phone: string; whatsapp: string; whatsappDigits: string; email: string } | undefined {
  const c = useQuery(shopContactsQueryOptions()).data?.contacts;
  if (!c) return undefined;
  return {
    phone: c.phone,
    whatsapp: showInternational(c.whatsapp),
    whatsappDigits: c.whatsapp,
    email: c.email,
  };
}
