// Instants are stored as UTC ISO strings and shown with the company's UTC offset; calendar dates
// (filters, bills, card windows) are days in the company's time zone, `YYYY-MM-DD`.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC at `ms` (whole seconds), in milliseconds, from the formatter. */
function exactOffset(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const [y, mo, d, h, mi, s] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) => Number(parts[k]));
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) - Math.floor(ms / 1000) * 1000;
}

const HOUR = 3_600_000;
/** Offsets by zone and UTC hour; NaN marks an hour in which the offset changes. */
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The offset at `ms`. Offsets change at most once an hour, on whole seconds, so an hour whose first
 * and last second have the same offset has it throughout: formatting then costs one lookup.
 */
function offsetAt(ms: number, timeZone: string): number {
  let zone = hourOffsets.get(timeZone);
  if (!zone) hourOffsets.set(timeZone, (zone = new Map()));
  const hour = Math.floor(ms / HOUR);
  let offset = zone.get(hour);
  if (offset === undefined) {
    const first = exactOffset(hour * HOUR, timeZone);
    offset = first === exactOffset(hour * HOUR + HOUR - 1000, timeZone) ? first : Number.NaN;
    if (zone.size >= 100_000) zone.clear();
    zone.set(hour, offset);
  }
  return Number.isNaN(offset) ? exactOffset(ms, timeZone) : offset;
}

/** The wall-clock parts of `ms` in `timeZone`, and the zone's offset from UTC at that instant, in minutes. */
function wallClock(ms: number, timeZone: string) {
  const offset = offsetAt(ms, timeZone);
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString();
  return { date: local.slice(0, 10), time: local.slice(11, 19), offset: Math.round(offset / 60000) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-18T17:32:05.000Z` → `2026-11-18T14:32:05-03:00` in America/Sao_Paulo. */
export function formatInstant(instant: string | Date, timeZone: string): string {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  const { date, time, offset } = wallClock(ms, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The calendar day of `instant` in `timeZone` (`YYYY-MM-DD`). */
export function localDate(instant: string | Date, timeZone: string): string {
  return wallClock(typeof instant === 'string' ? Date.parse(instant) : instant.getTime(), timeZone).date;
}

/** The UTC ISO instant at which `date` (`YYYY-MM-DD`) begins in `timeZone`. */
export function startOfDay(date: string, timeZone: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const midnightUtc = Date.UTC(y!, m! - 1, d!);
  let guess = midnightUtc - wallClock(midnightUtc, timeZone).offset * 60000;
  const corrected = midnightUtc - wallClock(guess, timeZone).offset * 60000;
  if (corrected !== guess) guess = corrected;
  return new Date(guess).toISOString();
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` plus `months` calendar months, keeping the day (clamped to the month's last day). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y!, m! - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d!, last))).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
