// Rotation without an outage and when a client was last used (server/areas/auth/store.ts):
// `previous_secret_hash` keeps working until `previous_secret_expires_at` (ISO), and
// `last_used_at` (ISO) is written when the client is given a token.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['previous_secret_hash', 'previous_secret_expires_at', 'last_used_at'])
    await db.schema.alterTable('api_clients').addColumn(column, 'text').execute();
}
