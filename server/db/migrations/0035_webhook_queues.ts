// Each endpoint's deliveries are a queue of their own: the worker finds the endpoints with pending
// deliveries along this index (one lookup per endpoint, not per delivery) and reads the head of each
// queue from it, due first, then in the order the events were recorded.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_queue')
    .on('webhook_deliveries')
    .columns(['status', 'endpoint_id', 'next_attempt_at', 'id'])
    .execute();
}
