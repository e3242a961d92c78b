// An ingest run's created events are recorded after its rows are published, a chunk per short
// transaction, so the closing transaction holds the write lock for the move alone. The run keeps
// what is left to record: the change number its rows were published under (null once every event is
// recorded), the last banking and credit-card ids recorded, the ingest's time and its summary event.
// A run published by a process that died between chunks is finished by the next ingest, from there.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_runs').addColumn('events_seq', 'integer').execute();
  await db.schema
    .alterTable('ingest_runs')
    .addColumn('events_banking_after', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ingest_runs')
    .addColumn('events_card_after', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('ingest_runs').addColumn('events_at', 'text').execute();
  await db.schema.alterTable('ingest_runs').addColumn('events_summary', 'text').execute();
}
