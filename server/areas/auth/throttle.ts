// Failed client authentications slow the guesser, never the owner. Client ids are not secrets, so a
// count per client id alone would let anyone lock a client out. Two counters per failure, in
// fixed one-minute windows, both keyed by the source address (`req.ip`: the peer, or what
// `TRUST_PROXY` lets Express read from X-Forwarded-For; IPv6 by /56 prefix, as the rate limit):
// - per source: after `perSource` failures, every attempt from that address is 429 until the
//   window ends (one address spraying guesses across client ids);
// - per client id from that source: after `perClient` failures, that client id is 429 from that
//   address only, the right secret included (so a guess that hits is not told apart).
// A correct secret from another address is never refused, and a correct secret from the same address
// (before the limit) clears its client's counter there: a client whose owner mistyped, or that
// met an older secret in a rotation, starts again from zero. The counters live in the database, so
// they hold across processes and replicas, and stay bounded: an attempt refused by a counter is
// not counted, so one address adds at most `perSource` + 1 rows a minute whatever ids it makes up,
// and each failure removes the rows whose window ended.
import { sql } from 'kysely';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../kit/errors.js';

const AUTH_FAILURE_WINDOW_MS = 60_000;

interface ThrottleLimits {
  /** Failures per source address per window (0: not counted). */
  perSource: number;
  /** Failures per client id from one source address per window (0: not counted). */
  perClient: number;
}

interface Attempt {
  clientId: string;
  /** The request's source address (`req.ip`). */
  address: string;
}

const keysOf = ({ clientId, address }: Attempt) => {
  const source = ipKeyGenerator(address);
  return { source: `source ${source}`, client: `client ${clientId} from ${source}` };
};

/**
 * Throws 429 when the attempt's source, or its client id from that source, has used up its
 * failures. Answers whether the client id has failures counted from that source (clearClientFailures).
 */
export async function assertNotThrottled(
  db: Db,
  attempt: Attempt,
  now: Date,
  limits: ThrottleLimits,
): Promise<boolean> {
  if (limits.perSource <= 0 && limits.perClient <= 0) return false;
  const keys = keysOf(attempt);
  const rows = await db
    .selectFrom('auth_failures')
    .select(['counter_key', 'window_start', 'failures'])
    .where('counter_key', 'in', [keys.source, keys.client])
    .execute();
  for (const row of rows) {
    const bySource = row.counter_key === keys.source;
    const limit = bySource ? limits.perSource : limits.perClient;
    const ends = Number(row.window_start) + AUTH_FAILURE_WINDOW_MS;
    if (limit <= 0 || ends <= now.getTime() || row.failures < limit) continue;
    const retryAfter = String(Math.max(1, Math.ceil((ends - now.getTime()) / 1000)));
    const what = bySource ? 'from this address' : 'for this client from this address';
    throw new ApiError(429, `Too many failed authentications ${what}; retry in ${retryAfter} seconds`, [], {
      'Retry-After': retryAfter,
    });
  }
  return rows.some((row) => row.counter_key === keys.client);
}

/**
 * Clears the client id's failures from the attempt's source, after it authenticated. Never the
 * source's own counter: a guesser holding one client of its own would clear it between guesses.
 */
export async function clearClientFailures(db: Db, attempt: Attempt): Promise<void> {
  await db.deleteFrom('auth_failures').where('counter_key', '=', keysOf(attempt).client).execute();
}

/** Counts one failed authentication for its source and for its client id from that source. */
export async function recordFailure(db: Db, attempt: Attempt, now: Date): Promise<void> {
  const at = now.getTime();
  const ended = at - AUTH_FAILURE_WINDOW_MS;
  const keys = keysOf(attempt);
  await db
    .insertInto('auth_failures')
    .values([keys.source, keys.client].map((counter_key) => ({ counter_key, window_start: at, failures: 1 })))
    .onConflict((oc) =>
      oc.column('counter_key').doUpdateSet({
        failures: sql`case when auth_failures.window_start <= ${ended} then 1 else auth_failures.failures + 1 end`,
        window_start: sql`case when auth_failures.window_start <= ${ended} then ${at} else auth_failures.window_start end`,
      }),
    )
    .execute();
  // A counter whose window ended holds nothing: keep the table to the last minute's failures.
  await db.deleteFrom('auth_failures').where('window_start', '<=', ended).execute();
}
