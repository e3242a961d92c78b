// Failed client authentications are counted per source address and per client id from that address
// (server/areas/auth/throttle.ts), no longer per client id alone: the counter's key names what it
// counts. The counters are short-lived; the old per-client ones are dropped.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('auth_failures' as never).execute();
  await db.schema.alterTable('auth_failures').renameColumn('client_id', 'counter_key').execute();
}
