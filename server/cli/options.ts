// Options and output shared by the `finance` commands.
import type { Command } from 'commander';
import { openDatabase, type Db } from '../db/database.js';

export const DEFAULT_DB = './data/finance.sqlite';

/** `--db`: a SQLite file path or a `postgres://…` URL; `$DATABASE_URL` when not given, else the SQLite default. */
export const defaultDb = (env: NodeJS.ProcessEnv = process.env) => env.DATABASE_URL || DEFAULT_DB;

export const withDb = (command: Command) =>
  command.option('--db <path-or-url>', 'SQLite database file or postgres:// URL (default: $DATABASE_URL, else ./data/finance.sqlite)', defaultDb());

/** Opens the database, runs `work`, and always closes it. */
export async function usingDb<T>(path: string, work: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDatabase(path);
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** `--json`: one JSON document on stdout. Otherwise a human-readable line per entry on stdout. */
export function output(json: boolean, value: Record<string, unknown>): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  for (const [key, v] of Object.entries(value)) process.stdout.write(`${key}: ${Array.isArray(v) ? v.join(' ') : String(v)}\n`);
}

export const parseScopes = (value: string) => value.split(/[,\s]+/).filter(Boolean);

export const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${value}`);
  return n;
};
