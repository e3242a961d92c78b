// The company's clock (sandbox test clocks): how far ahead of wall time the company's business
// rules run, in milliseconds. 0 until the sandbox moves it; it only grows (server/areas/auth/company-clock.ts).
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('clock_offset_ms', columnTypes(db).bigInteger, (c) => c.notNull().defaultTo(0))
    .execute();
}
