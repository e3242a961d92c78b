// Variables the service does not read but probably was meant to: a misspelled name (`DATABSE_URL`,
// `PORTT`) would otherwise be ignored without a word, and the default it leaves in place (the
// SQLite file, port 8080) silently taken. Named at `finance serve`'s start and by `finance config`.
import { SETTING_NAMES } from './settings.js';

/** The service's own prefix: any `FINANCE_…` name it does not know is a mistake. */
const PREFIX = 'FINANCE_';

/** Optimal string alignment distance (a swap of two neighbours counts as one edit). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/** Short names allow one edit, longer ones two: `PGPORT` is not a misspelled `PORT`, `DATABSE_URL` is. */
const closeEnough = (name: string, known: string) => {
  const allowed = Math.min(name.length, known.length) <= 6 ? 1 : 2;
  // Every edit changes the length by one at most: names further apart in length are not measured.
  return Math.abs(name.length - known.length) <= allowed && distance(name, known) <= allowed;
};

/** One warning per unknown variable that looks meant for this service, with the likely intended name. */
export function unknownSettings(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(SETTING_NAMES);
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (known.has(name) || name.length < 4 || name.startsWith('OTEL_')) continue;
    const upper = name.toUpperCase();
    const likely = known.has(upper) ? upper : SETTING_NAMES.find((k) => closeEnough(upper, k));
    if (likely) warnings.push(`${name}: not a setting of this service; did you mean ${likely}?`);
    else if (upper.startsWith(PREFIX))
      warnings.push(`${name}: not a setting of this service (see docs/configuration.md)`);
  }
  return warnings;
}
