// A rate-limit store that survives its shared store failing. Counts go to the primary (Redis); when
// a command fails or times out, the count is taken by the fallback (the database's counters) and the
// primary is left alone for RETRY_PRIMARY_MS, then tried again: the API keeps its limit through a
// Redis outage and returns to Redis by itself. Each switch is logged once; every count the fallback
// takes is counted (`finance_rate_limit_store_fallbacks_total`). Counts taken by one store are not
// seen by the other, so a client may get up to one extra window's worth around a switch.
//
// Which fallback: the database's counters are shared by every process that lost Redis, but not with
// those still counting in Redis, so a replica cut off from Redis alone lets a client have a whole
// limit of its own beside the fleet's (three replicas behind a balancer, one without Redis: 900 of
// 900 requests through where the limit is 600). With RATE_LIMIT_FALLBACK_REPLICAS each process that
// lost Redis counts in its own memory against its share of the limit instead (`ShareRateLimitStore`),
// so it never lets through more than that share, whatever the others do.
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { countRateLimitFallback } from './metrics.js';

const RETRY_PRIMARY_MS = 5000;

export class FallbackRateLimitStore implements Store {
  readonly localKeys = false;
  private primaryDownUntil = 0;
  private primaryDown = false;

  constructor(
    private readonly primary: Store,
    private readonly fallback: Store,
    private readonly logger: Logger,
    private readonly names = { primary: 'redis', fallback: 'database' },
    /** Where the primary is (`host:port`) and the connection's own last error: a failed command only says "Stream isn't writeable". */
    private readonly where: () => { address?: string; cause?: Error } = () => ({}),
  ) {}

  init(options: Options): void {
    void this.primary.init?.(options);
    void this.fallback.init?.(options);
  }

  private async run<T>(work: (store: Store) => Promise<T> | T): Promise<T> {
    if (Date.now() >= this.primaryDownUntil) {
      try {
        const result = await work(this.primary);
        if (this.primaryDown) {
          this.primaryDown = false;
          this.logger.info({ store: this.names.primary }, 'rate-limit store is back; counting there again');
        }
        return result;
      } catch (err) {
        if (!this.primaryDown) {
          this.primaryDown = true;
          const { address, cause } = this.where();
          const reason = (cause ?? (err as Error))?.message ?? String(err);
          this.logger.warn(
            { err: cause ?? err, store: this.names.primary, address, fallback: this.names.fallback },
            `rate-limit store failed: ${this.names.primary}${address ? ` at ${address}` : ''}: ${reason}; counting in the ${this.names.fallback}`,
          );
        }
        this.primaryDownUntil = Date.now() + RETRY_PRIMARY_MS;
      }
    }
    countRateLimitFallback();
    return work(this.fallback);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.run((store) => store.get?.(key));
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    return this.run((store) => store.increment(key));
  }

  async decrement(key: string): Promise<void> {
    return this.run((store) => store.decrement(key));
  }

  async resetKey(key: string): Promise<void> {
    return this.run((store) => store.resetKey(key));
  }
}

/**
 * One process's share of the limit, counted in its memory: its hits are reported scaled to the
 * whole limit (the limiter knows only RATE_LIMIT_PER_MINUTE), so a client is refused past `share`
 * requests in the window and the RateLimit header's remaining part is the same fraction of the share.
 */
export class ShareRateLimitStore implements Store {
  readonly localKeys = true;
  private readonly counts = new MemoryStore();

  constructor(
    private readonly perMinute: number,
    readonly share: number,
  ) {}

  init(options: Options): void {
    this.counts.init(options);
  }

  private scaled(info: ClientRateLimitInfo): ClientRateLimitInfo {
    return { totalHits: Math.ceil((info.totalHits * this.perMinute) / this.share), resetTime: info.resetTime };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const info = await this.counts.get(key);
    return info && this.scaled(info);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    return this.scaled(await this.counts.increment(key));
  }

  async decrement(key: string): Promise<void> {
    await this.counts.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.counts.resetKey(key);
  }

  shutdown(): void {
    this.counts.shutdown();
  }
}

/**
 * The share of `perMinute` one process counts while Redis is unreachable: the limit divided by the
 * replicas (RATE_LIMIT_FALLBACK_REPLICAS) and by the processes of each (`--workers`), at least 1.
 * None when the setting is unset (the database counts) or limiting is off.
 */
export function fallbackShare(
  perMinute: number,
  replicas: number | undefined,
  workers: number,
): { perMinute: number; share: number } | undefined {
  if (replicas === undefined || replicas <= 0 || perMinute <= 0) return undefined;
  return { perMinute, share: Math.max(1, Math.floor(perMinute / (replicas * Math.max(1, workers)))) };
}
