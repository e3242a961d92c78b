// API clients managed through the API (server/areas/auth/clients.ts): a name, who created the
// client (an API client id, or `cli`), the addresses it may ask for tokens from (JSON array of
// CIDR blocks; null: any), when it stops working (`expires_at`) and the address of its last token
// request (`last_used_ip`, beside 0017's `last_used_at`).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['name', 'created_by', 'allowed_ips', 'expires_at', 'last_used_ip'])
    await db.schema.alterTable('api_clients').addColumn(column, 'text').execute();
}
