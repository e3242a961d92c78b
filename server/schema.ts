// The database as Kysely sees it: the union of every area's tables.
import type { AuthTables } from './areas/auth/tables.js';
import type { DirectoryTables } from './areas/directory/tables.js';
import type { UsersTables } from './areas/users/tables.js';
import type { StatementsTables } from './areas/statements/tables.js';
import type { VcnTables } from './areas/vcn/tables.js';
import type { EventsTables } from './areas/events/tables.js';
import type { IdempotencyTables } from './idempotency/tables.js';

/** Tables of the HTTP layer itself. */
interface PlatformTables {
  rate_limit_windows: { key: string; window_start: number; hits: number };
}

export interface Database
  extends AuthTables,
    DirectoryTables,
    UsersTables,
    StatementsTables,
    VcnTables,
    PlatformTables,
    EventsTables,
    IdempotencyTables {}
