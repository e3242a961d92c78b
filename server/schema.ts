// The database as Kysely sees it: the union of every owner's tables. server/db/ declares the
// `Database` interface empty (the plumbing knows no table); this is the one place that fills it,
// from the tables.ts of each owner: the areas, the idempotency store and the rate limit.
import type { AppsTables } from './areas/apps/tables.js';
import type { AuditTables } from './areas/audit/tables.js';
import type { AuthTables } from './areas/auth/tables.js';
import type { DirectoryTables } from './areas/directory/tables.js';
import type { EventsTables } from './areas/events/tables.js';
import type { StatementsTables } from './areas/statements/tables.js';
import type { UsersTables } from './areas/users/tables.js';
import type { VcnTables } from './areas/vcn/tables.js';
import type { WebhooksTables } from './areas/webhooks/tables.js';
import type { RateLimitTables } from './http/ops/rate-limit-tables.js';
import type { IdempotencyTables } from './idempotency/tables.js';

declare module './db/database.js' {
  interface Database
    extends AppsTables,
      AuditTables,
      AuthTables,
      DirectoryTables,
      EventsTables,
      StatementsTables,
      UsersTables,
      VcnTables,
      WebhooksTables,
      RateLimitTables,
      IdempotencyTables {}
}
