// The Node.js versions the project supports are stated once (package.json `engines`) and hold for what
// a production install runs: no production dependency in the lockfile asks for a newer Node.js than
// the oldest one we state (development tools may: they never run in production).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }>;
};

describe('engines', () => {
  it('when the project states its Node.js versions, then this Node.js is one of them', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('when a production install runs, then no dependency of it needs a newer Node.js than the oldest stated', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const needNewer = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (entry.dev || !path || !wanted) return [];
      return semver.satisfies(oldest, wanted) ? [] : [`${path} needs node ${wanted}`];
    });
    expect(needNewer).toEqual([]);
  });
});
