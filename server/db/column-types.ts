// Portable column types for migrations: the same schema on SQLite and PostgreSQL. SQLite keeps the
// types it always had (so existing files need nothing); PostgreSQL gets bigint money, timestamptz
// instants, double precision rates, bytea blobs and identity keys (every `integer` is bigint there:
// postgres.ts). Dates without time stay text.
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { storeKind } from './dialect.js';

export function columnTypes(db: Kysely<any>) {
  const pg = storeKind(db) === 'postgres';
  return {
    /** Integer minor units of money. */
    money: pg ? ('bigint' as const) : ('integer' as const),
    /** A 64-bit integer (epoch milliseconds, counters). */
    bigInteger: pg ? ('bigint' as const) : ('integer' as const),
    /** An instant, written as an ISO-8601 UTC string (`toISOString()`), read back the same way. */
    time: pg ? ('timestamptz' as const) : ('text' as const),
    /** A floating-point rate. */
    real: pg ? ('double precision' as const) : ('real' as const),
    blob: pg ? ('bytea' as const) : ('blob' as const),
    /** An integer primary key the database assigns. */
    autoId: (c: ColumnDefinitionBuilder) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
  };
}
