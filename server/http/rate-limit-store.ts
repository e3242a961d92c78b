// Where request counters live, so every worker and replica counts against one limit:
//  - Redis (`REDIS_URL`), through rate-limit-redis;
//  - else the database: one row per key and fixed window, bumped by an atomic upsert;
//  - memory only for a single process on SQLite (nothing else could share it).
import type { Store, Options, ClientRateLimitInfo } from 'express-rate-limit';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

/** Fraction of increments that also delete windows older than the previous one. */
const PRUNE_SHARE = 0.01;

export class DatabaseRateLimitStore implements Store {
  private windowMs = 60_000;
  readonly localKeys = false;
  readonly prefix = 'rl:';

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private windowStart(): number {
    const now = this.clock.now().getTime();
    return now - (now % this.windowMs);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const start = this.windowStart();
    const row = await this.db
      .selectFrom('rate_limit_windows')
      .select('hits')
      .where('key', '=', key)
      .where('window_start', '=', start)
      .executeTakeFirst();
    return row ? { totalHits: row.hits, resetTime: new Date(start + this.windowMs) } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const start = this.windowStart();
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ key, window_start: start, hits: 1 })
      .onConflict((oc) =>
        oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ hits: eb('rate_limit_windows.hits', '+', 1) })),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    if (Math.random() < PRUNE_SHARE) {
      await this.db
        .deleteFrom('rate_limit_windows')
        .where('window_start', '<', start - this.windowMs)
        .execute()
        .catch(() => undefined);
    }
    return { totalHits: row.hits, resetTime: new Date(start + this.windowMs) };
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .updateTable('rate_limit_windows')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('key', '=', key)
      .where('window_start', '=', this.windowStart())
      .where('hits', '>', 0)
      .execute();
  }

  async resetKey(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limit_windows').where('key', '=', key).execute();
  }
}

interface RateLimitStoreChoice {
  /** Undefined: express-rate-limit's memory store (one process on SQLite). */
  store?: Store;
  close(): Promise<void>;
}

/** Redis when `redisUrl` is given; the database when counters must be shared; else memory. */
export async function rateLimitStore(options: {
  db: Db;
  clock: Clock;
  shared: boolean;
  redisUrl?: string;
}): Promise<RateLimitStoreChoice> {
  if (options.redisUrl) {
    const [{ Redis }, { RedisStore }] = await Promise.all([import('ioredis'), import('rate-limit-redis')]);
    const client = new Redis(options.redisUrl, { maxRetriesPerRequest: 2 });
    const store = new RedisStore({
      prefix: 'finance:rl:',
      sendCommand: (command: string, ...args: string[]) => client.call(command, ...args) as Promise<never>,
    });
    return { store, close: async () => void (await client.quit().catch(() => undefined)) };
  }
  if (options.shared)
    return { store: new DatabaseRateLimitStore(options.db, options.clock), close: async () => undefined };
  return { close: async () => undefined };
}
