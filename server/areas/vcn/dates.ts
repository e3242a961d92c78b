// Calendar days (YYYY-MM-DD) for card windows: days in the company's time zone.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `at` in `timeZone`, as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: Date): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, format);
  }
  return format.format(at);
}

const DAY_MS = 86_400_000;
const toUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** `day` plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  return new Date(toUtc(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

/** Card expiration `MM/YYYY`: the month of the last valid day. */
export function expirationOf(endDate: string): string {
  return `${endDate.slice(5, 7)}/${endDate.slice(0, 4)}`;
}

/** The longest window: endDate at most this many days after the issuance day. */
export const MAX_VALIDITY_DAYS = 365;
