/** A batch's ready day as the shop writes it; apart, so a product card loads nothing more. */

const dayMonth = (year: boolean) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    ...(year ? { year: 'numeric' as const } : {}),
    timeZone: 'UTC',
  });

/** "12 March" from "2027-03-12" (a shop day: no time zone moves it); "" when missing. */
export function readyDay(day: string | null | undefined, withYear = false): string {
  if (!day) return '';
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  return dayMonth(withYear).format(d);
}
