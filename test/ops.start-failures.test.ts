// Start-up failures that are not a bad value still name the setting behind them: a database that
// cannot be reached is retried for DATABASE_START_TIMEOUT_MS, each attempt at warn, then refused
// naming DATABASE_URL (without its password).
import { describe, expect, it } from 'vitest';
import { openStoreAtStart } from '../server/db/open-at-start.js';

describe('a start that cannot reach its database', () => {
  it('when PostgreSQL refuses connections, then the start retries with warnings and fails naming DATABASE_URL', async () => {
    const warnings: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      warnings.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    const started = Date.now();
    try {
      await expect(openStoreAtStart('postgres://finance:s3cret@127.0.0.1:1/finance', 1200)).rejects.toThrow(
        /^DATABASE_URL: cannot open postgres:\/\/finance:\*\*\*@127\.0\.0\.1:1\/finance: .*gave up after \d+ attempts in 1200 ms/,
      );
    } finally {
      process.stderr.write = write;
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    expect(warnings.join('')).toContain('attempt 1, retrying in 250 ms');
    expect(warnings.join('')).not.toContain('s3cret');
  });
});
