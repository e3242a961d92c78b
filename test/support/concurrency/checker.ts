// The model: what must be true of a history and of the store it leaves, whatever the interleaving,
// the dropped connections and the crashes. Each property is named; a violation says
// which and shows the attempts behind it.
import { isDeepStrictEqual } from 'node:util';
import type { KeyedCreate } from './driver.js';
import type { Attempt, History, Statement } from './history.js';

export interface Violation {
  property: string;
  detail: string;
}

type Rows = Map<string, { id: string | number } & Record<string, unknown>>;

interface Final {
  history: History;
  creates: KeyedCreate[];
  /** Each statement's list before the run and after it; the ledger its feed built. */
  before: Record<Statement, Rows>;
  after: Record<Statement, Rows>;
  ledgers: Record<Statement, Rows>;
}

const STATEMENTS: Statement[] = ['banking', 'credit-card'];

/** Statuses each kind of attempt may answer (besides no answer at all: abandoned, network). */
const EXPECTED: Array<[RegExp, number[]]> = [
  [/^create /, [201, 409, 503]],
  [/^(batch )?PATCH /, [204, 412, 503]],
  [/^(read|feed|list) /, [200, 503]],
];

function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

const show = (a: Attempt) =>
  `#${a.op} ${a.what}${a.key ? ` key=${a.key}` : ''} process ${a.generation} [${a.start}–${a.end} ms] → ${a.outcome}` +
  `${a.reason ? ` ${a.reason}` : ''}${a.replayed ? ' (replayed)' : ''}${a.retryAfter ? ` Retry-After ${a.retryAfter}` : ''}` +
  `${a.ids ? ` ids ${a.ids.length === 0 ? '(none)' : a.ids.length > 3 ? `${a.ids.slice(0, 3).join(',')}… (${a.ids.length})` : a.ids.join(',')}` : ''}`;

/** A key's attempts, the first few and the last (a stuck key may have hundreds). */
const attemptsOf = (attempts: Attempt[]) =>
  attempts.length <= 8
    ? attempts.map(show).join(' | ')
    : `${attempts.slice(0, 5).map(show).join(' | ')} | … ${attempts.length - 7} more | ${attempts.slice(-2).map(show).join(' | ')}`;

export function check({ history, creates, before, after, ledgers }: Final): Violation[] {
  const violations: Violation[] = [];
  const fail = (property: string, detail: string) => violations.push({ property, detail });
  const byKey = groupBy(
    history.attempts.filter((a) => a.key),
    (a) => a.key!,
  );

  for (const a of history.attempts) {
    if (typeof a.outcome !== 'number') continue;
    const expected = EXPECTED.find(([what]) => what.test(a.what))?.[1] ?? [];
    const inUse = a.outcome === 409 && a.reason === 'idempotency_key_in_use';
    if (!expected.includes(a.outcome) || (a.outcome === 409 && !inUse) || (a.outcome === 412 && !a.preconditions))
      fail('answers-in-contract', show(a));
    else if ((inUse || a.outcome === 503) && !a.retryAfter) fail('retry-after-on-busy', show(a));
  }

  // Idempotency: every keyed write is answered (a crashed claim recovers), one answer per key, its
  // rows stored exactly once.
  const rows = Object.fromEntries(
    STATEMENTS.map((s) => [s, groupBy(after[s].values(), (row) => String(row.description))]),
  ) as Record<Statement, Map<string, Array<{ id: string | number }>>>;
  for (const { key, statement, markers } of creates) {
    const attempts = byKey.get(key) ?? [];
    const answers = attempts.filter((a) => a.outcome === 201);
    if (answers.length === 0) {
      const crashed = history.crashes.some((c) => c.inFlight.includes(key));
      fail(
        'keyed-write-answered',
        `${key}: no 201 after ${attempts.length} attempts${crashed ? ' (in flight at a crash)' : ''}: ${attemptsOf(attempts)}`,
      );
    }
    const distinct = new Set(answers.map((a) => a.ids!.join(',')));
    if (distinct.size > 1 || (answers[0] && answers[0].ids!.length !== markers.length))
      fail('one-answer-per-key', `${key} (${markers.length} transactions sent): ${attemptsOf(answers)}`);
    const twice = markers.filter((marker) => (rows[statement].get(marker)?.length ?? 0) > 1);
    if (twice.length > 0) {
      const example = rows[statement].get(twice[0]!)!;
      fail(
        'stored-at-most-once',
        `${key}: ${twice.length} of its ${markers.length} transactions stored more than once (${twice[0]} as ${example.map((r) => r.id).join(', ')}); its attempts: ${attemptsOf(attempts)}`,
      );
    }
    const ids = answers[0]?.ids ?? [];
    const lost = markers.filter(
      (marker, i) => ids[i] !== undefined && !rows[statement].get(marker)?.some((r) => String(r.id) === ids[i]),
    );
    if (lost.length > 0) {
      const i = markers.indexOf(lost[0]!);
      const stored = rows[statement].get(lost[0]!) ?? [];
      fail(
        'acknowledged-present',
        `${key}: ${lost.length} of its ${markers.length} acknowledged transactions are not stored under the id answered (${lost[0]}: answered ${ids[i]}, stored ${stored.length === 0 ? 'nowhere' : `as ${stored.map((r) => r.id).join(', ')}`}); its attempts: ${attemptsOf(attempts)}`,
      );
    }
  }
  const planned = new Set(creates.flatMap((c) => c.markers));
  for (const s of STATEMENTS) {
    const added = [...after[s].values()].filter((row) => !before[s].has(String(row.id)));
    const stray = added.filter((row) => !planned.has(String(row.description)));
    if (stray.length > 0)
      fail(
        'no-row-without-attempt',
        `${s}: ${stray.length} new rows no create sent: ${stray
          .slice(0, 5)
          .map((r) => `${r.id} ${r.description}`)
          .join(', ')}`,
      );
    const gone = [...before[s].keys()].filter((id) => !after[s].has(id));
    if (gone.length > 0)
      fail('no-row-without-attempt', `${s}: rows gone that nothing removed: ${gone.slice(0, 5).join(', ')}`);
  }

  // If-Match: of the writers holding one ETag of a row, at most one wins.
  const held = history.attempts.flatMap((a) =>
    (a.preconditions ?? []).map((p) => ({ a, version: `${p.statement} ${p.id} ${p.etag}` })),
  );
  const holders = new Map([...groupBy(held, (h) => h.version)].map(([version, hs]) => [version, hs.map((h) => h.a)]));
  for (const [version, writers] of holders) {
    const winners = writers.filter((a) => typeof a.outcome === 'number' && a.outcome < 300);
    if (winners.length > 1)
      fail(
        'if-match-one-winner',
        `${winners.length} of ${writers.length} writers holding ${version} won: ${winners.map(show).join(' | ')}`,
      );
  }

  // The change feed: the ledger it built equals the list.
  for (const s of STATEMENTS) {
    const missing = [...after[s].keys()].filter((id) => !ledgers[s].has(id));
    const extra = [...ledgers[s].keys()].filter((id) => !after[s].has(id));
    const differing = [...after[s].entries()].filter(
      ([id, row]) => ledgers[s].has(id) && !isDeepStrictEqual(ledgers[s].get(id), row),
    );
    if (missing.length + extra.length + differing.length > 0)
      fail(
        'feed-ledger-equals-list',
        `${s}: ${missing.length} rows missing from the ledger (${missing.slice(0, 5).join(', ')}), ${extra.length} extra (${extra.slice(0, 5).join(', ')}), ${differing.length} differing` +
          (differing[0]
            ? ` (${differing[0][0]}: ledger ${JSON.stringify(ledgers[s].get(differing[0][0]))} list ${JSON.stringify(differing[0][1])})`
            : ''),
      );
  }
  return violations;
}
