// The stock middleware's verdicts, remembered. The validator tests send the same requests to our
// validator and to express-openapi-validator's own middleware and expect the same answers. The stock
// side's answers depend only on what it is given: its installed version and those of its libraries,
// the contract and options it is built with, the app around it, and the requests. So each test records
// a digest of the stock answers under a key over all of these (test/fixtures/stock-verdicts/), and a
// later run whose key is the same compares our answers to that digest instead of asking the stock
// middleware again (~0.4 s to build each operation's checks, most of these files' time).
//
// Anything else falls back to asking the stock side, request by request, as before: a key not
// recorded (a contract, option, dependency or test changed), or our answers not matching the digest,
// which then names each request that differs. After a live run without differences the record is
// written, as vitest writes a new snapshot: not under CI, where a stale record only costs the live run.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIRECTORY = join(ROOT, 'test', 'fixtures', 'stock-verdicts');

interface StockRecord {
  /** What the stock answers depend on, hashed. */
  key: string;
  /** The stock answers, in request order, each as compared (see `comparable`), hashed. */
  digest: string;
  /** How many answers the digest covers. */
  count: number;
  /** The answers compared by status and acceptance only, by index (where the stock message cannot be ours). */
  partial?: number[];
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** JSON with functions written as their source (the validator's options carry format checks). */
const stableJson = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'function' ? `function:${String(v)}` : v));

/** The packages the stock side runs, from the lockfile: Express, the validator and what they depend on. */
const STOCK_PACKAGES = ['express', 'express-openapi-validator'];

interface LockedPackage {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** `roots` and every package they depend on, as the lockfile resolves them: `path@version integrity`, sorted. */
function lockedClosure(roots: string[]): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  };
  // Node's lookup: the nearest node_modules folder up from the dependent that holds the name.
  const resolve = (name: string, from: string): string | undefined => {
    for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
      const path = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (lock.packages[path]) return path;
      if (!at) return undefined;
    }
  };
  const seen = new Set<string>();
  const queue = roots.map((name) => `node_modules/${name}`);
  for (let path = queue.pop(); path; path = queue.pop()) {
    const entry = lock.packages[path];
    if (seen.has(path) || !entry) continue;
    seen.add(path);
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolve(name, path);
      if (found) queue.push(found);
    }
  }
  return [...seen].sort().map((path) => `${path}@${lock.packages[path]!.version} ${lock.packages[path]!.integrity}`);
}

/** The stock side's locked packages, read once per process (every key of a run shares them). */
let stockPackages: string | undefined;

/**
 * The key of a stock run: the locked versions of what the stock side runs (Express, the validator and
 * their dependencies), Node's version (its fetch sends the requests), the test file's source (the app
 * around the middleware), and `inputs` (the contract, the options, the requests).
 */
export function stockKey(testFile: string, inputs: unknown[]): string {
  const hash = createHash('sha256');
  hash.update((stockPackages ??= lockedClosure(STOCK_PACKAGES).join('\n')));
  hash.update(process.version);
  hash.update(readFileSync(fileURLToPath(testFile)));
  for (const input of inputs) hash.update(stableJson(input) ?? 'undefined');
  return hash.digest('hex');
}

/** The digest of answers in order. */
export function digestOf(answers: unknown[]): string {
  return sha256(answers.map((answer) => stableJson(answer)).join('\n'));
}

const fileOf = (name: string) => join(DIRECTORY, `${name}.json`);

/** The record of `name` when its key is `key`. */
export function recorded(name: string, key: string): StockRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(fileOf(name), 'utf8')) as StockRecord;
    return record.key === key ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the record of a live run that found no difference (not under CI: a clean checkout's copy is thrown away). */
export function remember(name: string, record: StockRecord): void {
  if (process.env.CI) return;
  mkdirSync(DIRECTORY, { recursive: true });
  writeFileSync(fileOf(name), `${JSON.stringify(record, null, 2)}\n`);
}
