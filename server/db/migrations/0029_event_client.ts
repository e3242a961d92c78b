// Events name the API client whose request made the change (`clientId`), so an integration can tell
// its own writes from people's and other apps'. Events recorded before stay without one (null).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('client_id', 'text').execute();
}
