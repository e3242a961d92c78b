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

/**
 * The key of a stock run: the lockfile (every library's version), Node's version (its fetch sends the
 * requests), the test file's source (the app around the middleware), and `inputs` (the contract, the
 * options, the requests).
 */
export function stockKey(testFile: string, inputs: unknown[]): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
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
