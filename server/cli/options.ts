// Options and output shared by the `finance` commands.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { openDatabase, type Db } from '../db/database.js';

export const DEFAULT_DB = './data/finance.sqlite';

export const withDb = (command: Command) => command.option('--db <path>', 'SQLite database file', DEFAULT_DB);

/**
 * Opens the database, runs `work`, and always closes it. The file must exist unless `create` is
 * set (only `company create` makes a new database; a mistyped `--db` must not silently make one).
 */
export async function usingDb<T>(path: string, work: (db: Db) => Promise<T>, { create = false } = {}): Promise<T> {
  if (!create && path !== ':memory:' && !existsSync(path)) {
    throw new Error(
      `no database at ${path}. Pass the --db that \`finance serve\` uses, or create one with \`finance company create --db ${path} --name <name>\``,
    );
  }
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

/** Marks every mandatory option of the program's commands "(required)" in `--help`. */
export function markRequiredOptions(command: Command): void {
  for (const option of command.options) {
    if (option.mandatory && !option.description.endsWith('(required)')) option.description = `${option.description} (required)`;
  }
  command.commands.forEach(markRequiredOptions);
}

