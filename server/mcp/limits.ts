// The rate limit of `/mcp`: the API's own step (RATE_LIMIT_PER_MINUTE per client, 429 with
// Retry-After), counted where the API counts (memory, the database or Redis) under keys of its
// own, so MCP messages have the same allowance as API requests beside them (the API requests a
// tool call makes count as API requests). Made when the app starts, as express-rate-limit wants;
// this file loads no MCP code, so a server that never serves `/mcp` loads none.
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { rateLimitStep } from '../http/ops/rate-limit.js';

/** The API's counters under `mcp:` keys (express-rate-limit takes one store instance per limiter). */
class McpCounters implements Store {
  readonly localKeys: boolean;
  readonly prefix: string;

  constructor(private readonly counters: Store) {
    this.localKeys = counters.localKeys ?? false;
    this.prefix = `${counters.prefix ?? ''}mcp:`;
  }

  init(options: Options): void {
    void this.counters.init?.(options);
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> | ClientRateLimitInfo | undefined {
    return this.counters.get?.(`mcp:${key}`);
  }

  increment(key: string): Promise<ClientRateLimitInfo> | ClientRateLimitInfo {
    return this.counters.increment(`mcp:${key}`);
  }

  decrement(key: string): Promise<void> | void {
    return this.counters.decrement(`mcp:${key}`);
  }

  resetKey(key: string): Promise<void> | void {
    return this.counters.resetKey(`mcp:${key}`);
  }
}

/** `store`: the API's shared counters, when it has any (else this process's memory). */
export const mcpRateLimit = (perMinute: number, store: Store | undefined) =>
  rateLimitStep(perMinute, store ? new McpCounters(store) : undefined);
