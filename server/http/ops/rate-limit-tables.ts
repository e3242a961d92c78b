// Row type of the shared rate-limit windows (migration 0012): the rate limit of the request pipeline
// owns this table (rate-limit-store.ts), no area reads it.

export interface RateLimitTables {
  rate_limit_windows: { key: string; window_start: number; hits: number };
}
