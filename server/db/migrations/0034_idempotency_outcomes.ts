// An idempotency key records, inside each write's own transaction, that the write committed and what
// it returned (`outcome`, sealed), and which running attempt holds it (`owner`): a retry after a lost
// answer or a crash answers for the committed write instead of making it again, and an attempt whose
// lease was taken over cannot commit (server/idempotency/store.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('owner', 'text').execute();
  await db.schema.alterTable('idempotency_keys').addColumn('outcome', 'text').execute();
}
