// Failed client authentications are throttled per client id, besides the per-address request
// limit: after `limit` failures within a one-minute window, every attempt for that client id is
// a 429 with Retry-After until the window ends, the right secret included (otherwise a guess
// that hits would still be told apart). The counter lives in the database, so it holds across
// processes and replicas.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';

const AUTH_FAILURE_WINDOW_MS = 60_000;

/** Throws 429 when `clientId` has used up its failures in the current window. */
export async function assertNotThrottled(db: Db, clientId: string, now: Date, limit: number): Promise<void> {
  if (limit <= 0) return;
  const row = await db
    .selectFrom('auth_failures')
    .select(['window_start', 'failures'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return;
  const ends = Number(row.window_start) + AUTH_FAILURE_WINDOW_MS;
  if (ends <= now.getTime() || row.failures < limit) return;
  const retryAfter = String(Math.max(1, Math.ceil((ends - now.getTime()) / 1000)));
  throw new ApiError(429, `Too many failed authentications for this client; retry in ${retryAfter} seconds`, [], {
    'Retry-After': retryAfter,
  });
}

/** Counts one failed authentication of `clientId` (a new window when the last one ended). */
export async function recordFailure(db: Db, clientId: string, now: Date): Promise<void> {
  const at = now.getTime();
  const ended = at - AUTH_FAILURE_WINDOW_MS;
  await db
    .insertInto('auth_failures')
    .values({ client_id: clientId, window_start: at, failures: 1 })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({
        failures: sql`case when auth_failures.window_start <= ${ended} then 1 else auth_failures.failures + 1 end`,
        window_start: sql`case when auth_failures.window_start <= ${ended} then ${at} else auth_failures.window_start end`,
      }),
    )
    .execute();
  // Windows ended an hour ago are of no use: keep the table small.
  await db
    .deleteFrom('auth_failures')
    .where('window_start', '<', at - 3_600_000)
    .execute();
}
