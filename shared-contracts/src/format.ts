/** Formatting both apps share: money, initials, the pagination window, dates. */
import { PAGINATION_FULL_MAX, SHOP_TIME_ZONE } from './constants';

/** `KES 1,250` in the storefront, `KSH 1,250` in the back office (en-US grouping). */
export function formatMoney(amount: number, label: 'KES' | 'KSH' = 'KES'): string {
  return `${label} ${Math.round(amount).toLocaleString('en-US')}`;
}

/** First letter of the first and of the last word of a name: "Wanjiku Kamau" -> "WK". */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '';
  const first = words[0]![0]!;
  const last = words.length > 1 ? words[words.length - 1]![0]! : '';
  return (first + last).toUpperCase();
}

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/** A list's total as a person reads it: "1,250", or "1,000+" when only a lower bound is known. */
export function formatTotal(total: number, isLowerBound = false): string {
  return `${total.toLocaleString('en-US')}${isLowerBound ? '+' : ''}`;
}

/** A list's total with its noun: "1 order", "37 orders", "1,000+ entries" (a lower bound). */
export function describeTotal(
  total: number,
  isLowerBound: boolean,
  noun: { one: string; many: string },
): string {
  return `${formatTotal(total, isLowerBound)} ${total === 1 && !isLowerBound ? noun.one : noun.many}`;
}

/**
 * The pages a pagination control shows: every page up to 8 pages; beyond that the first, the last,
 * a window around the current page, and ellipses where pages are skipped.
 */
export function paginationWindow(current: number, total: number, siblings = 1): PageItem[] {
  if (total <= 0) return [];
  if (total <= PAGINATION_FULL_MAX) return Array.from({ length: total }, (_, i) => i + 1);
  const page = Math.min(Math.max(1, current), total);
  let start = Math.max(2, page - siblings);
  let end = Math.min(total - 1, page + siblings);
  // Keep the window the same width near either end.
  if (page - siblings <= 2) end = Math.min(total - 1, 2 + siblings * 2);
  if (page + siblings >= total - 1) start = Math.max(2, total - 1 - siblings * 2);
  const items: PageItem[] = [1];
  if (start > 2) items.push('ellipsis-start');
  for (let p = start; p <= end; p++) items.push(p);
  if (end < total - 1) items.push('ellipsis-end');
  items.push(total);
  return items;
}

const shopDate = new Intl.DateTimeFormat('en-GB', {
  timeZone: SHOP_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const shopTime = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

/** dd/MM/yyyy in the shop's time zone. */
export function formatDate(iso: string | Date | null | undefined): string {
  if (!iso) return '';
  return shopDate.format(new Date(iso));
}

/** dd/MM/yyyy (h:mm a), for audit timestamps. */
export function formatDateTime(iso: string | Date | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${shopDate.format(d)} (${shopTime.format(d)})`;
}

const SHOP_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The shop's calendar day (Africa/Nairobi) as YYYY-MM-DD, whatever the device's time zone. */
export function shopToday(now: Date = new Date()): string {
  return SHOP_DAY.format(now);
}
