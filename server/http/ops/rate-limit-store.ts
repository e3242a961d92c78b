// Where request counters live, so every worker and replica counts against one limit:
//  - Redis (`REDIS_URL`), through rate-limit-redis, with the database's counters as its fallback
//    while Redis fails, or this process's share of the limit in its memory when
//    RATE_LIMIT_FALLBACK_REPLICAS says how many share it (rate-limit-fallback.ts): a Redis outage
//    never takes the API down;
//  - else the database: one row per key and fixed window, bumped by an atomic upsert;
//  - memory only for a single process on SQLite (nothing else could share it).
import type { Store, Options, ClientRateLimitInfo } from 'express-rate-limit';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from 'pino';
import { FallbackRateLimitStore, ShareRateLimitStore } from './rate-limit-fallback.js';

/** A Redis command that has no answer by then has failed (the fallback counts instead). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

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
  /** Redis's readiness probe, when Redis is configured. */
  ping?: () => Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Redis when `redisUrl` is given, falling back to this process's share of the limit when
 * `fallbackShare` is given (rate-limit-fallback.ts `fallbackShare`), else to the database; the
 * database when counters must be shared; else memory.
 */
export async function rateLimitStore(options: {
  db: Db;
  clock: Clock;
  shared: boolean;
  redisUrl?: string;
  logger: Logger;
  fallbackShare?: { perMinute: number; share: number };
}): Promise<RateLimitStoreChoice> {
  const database = new DatabaseRateLimitStore(options.db, options.clock);
  const share = options.fallbackShare;
  if (options.redisUrl) {
    const [{ Redis }, { RedisStore }] = await Promise.all([import('ioredis'), import('rate-limit-redis')]);
    // Commands fail at once while disconnected (no offline queue) or after the timeout when Redis
    // does not answer; ioredis keeps reconnecting in the background. Its `error` events are expected
    // during an outage: the fallback store logs the switch.
    const client = new Redis(options.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    });
    // Its last error (ECONNREFUSED 10.0.0.5:6379) is what the fallback's warning names.
    let cause: Error | undefined;
    client.on('error', (err: Error) => {
      cause = err;
    });
    client.on('ready', () => {
      cause = undefined;
    });
    const address = `${client.options.host ?? 'localhost'}:${client.options.port ?? 6379}`;
    const redis = new RedisStore({
      prefix: 'finance:rl:',
      sendCommand: (command: string, ...args: string[]) => client.call(command, ...args) as Promise<never>,
    });
    // The store loads its scripts at once and again on demand; a load that fails now is retried then.
    for (const loading of [redis.incrementScriptSha, redis.getScriptSha]) loading.catch(() => undefined);
    const fallback = share
      ? {
          store: new ShareRateLimitStore(share.perMinute, share.share),
          name: `memory of this process (its share: ${share.share} of ${share.perMinute} a minute)`,
        }
      : { store: database, name: 'database' };
    const names = { primary: 'redis', fallback: fallback.name };
    return {
      store: new FallbackRateLimitStore(redis, fallback.store, options.logger, names, () => ({ address, cause })),
      ping: () => client.ping(),
      close: async () => void (await client.quit().catch(() => undefined)),
    };
  }
  if (options.shared) return { store: database, close: async () => undefined };
  return { close: async () => undefined };
}
