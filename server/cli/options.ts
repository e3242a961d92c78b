// Options and output shared by the `finance` commands.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ALL_SCOPES } from '../areas/auth/store.js';
import { isTimeZone } from '../lib/time-zone.js';
import { requireSchema, SchemaBehindError, type Db } from '../db/database.js';
import { openStore, StoreMissingError } from '../db/store.js';
import { describeLocation } from '../db/location.js';
import { modeProblem } from '../settings.js';

const DEFAULT_DB = './data/finance.sqlite';

/** `--db`: a SQLite file path or a `postgres://…` URL; `$DATABASE_URL` when not given, else the SQLite default. */
const defaultDb = (env: NodeJS.ProcessEnv = process.env) => env.DATABASE_URL || DEFAULT_DB;

/**
 * `--db`, defaulting to `$DATABASE_URL`. `--help` shows that default without its password. With
 * NODE_ENV=production the store is never chosen by default: without `--db` or `DATABASE_URL` the
 * command refuses to run rather than open ./data/finance.sqlite (`checksSettings`: the command
 * names it itself, with the other settings' problems). A NODE_ENV that is no mode is refused too:
 * it decides what a command does (the scopes a new client gets, the log's format).
 */
export const withDb = (command: Command, { checksSettings = false } = {}) =>
  command
    .addOption(
      new Option(
        '--db <path-or-url>',
        'SQLite database file or postgres://…/database URL (default: $DATABASE_URL, else ./data/finance.sqlite outside production)',
      ).default(defaultDb(), describeLocation(defaultDb())),
    )
    .hook('preAction', (cmd) => {
      // `serve` names these among every other setting error (settingsProblems).
      const mode = checksSettings ? undefined : modeProblem(process.env);
      if (mode) throw new Error(mode);
      if (
        !checksSettings &&
        process.env.NODE_ENV === 'production' &&
        cmd.getOptionValueSource('db') === 'default' &&
        !process.env.DATABASE_URL
      )
        throw new Error(
          'DATABASE_URL: NODE_ENV=production needs the store named on purpose: set DATABASE_URL (postgres://user:password@host:5432/database) or pass --db',
        );
    });

/**
 * Opens the database, runs `work`, and always closes it. The file must exist unless `create` is
 * set (only `company create` and `seed --demo` make a new database, given the latest schema; a
 * mistyped `--db` must not silently make one). A PostgreSQL database is never created here:
 * connecting to a missing one fails by itself. Only `finance migrate` changes the schema: a store
 * behind this build is refused, naming the pending migrations (`anySchema`: opened as it is).
 */
export async function usingDb<T>(
  path: string,
  work: (db: Db) => Promise<T>,
  { create = false, anySchema = false } = {},
): Promise<T> {
  const store = await openStore(path, { mustExist: !create, migrate: false }).catch((err: unknown) => {
    if (!(err instanceof StoreMissingError)) throw err;
    throw new Error(
      `no database at ${path}. Pass the --db that \`finance serve\` uses, or create one with \`finance company create --db ${path} --name <name>\``,
    );
  });
  try {
    if (!anySchema)
      await requireSchema(store.db, { createNew: create }).catch((err: unknown) => {
        if (!(err instanceof SchemaBehindError)) throw err;
        throw new Error(
          `${describeLocation(path)} needs migrating (${err.message}); run \`finance migrate\` with the same --db first: this command does not change the schema`,
        );
      });
    return await work(store.db);
  } finally {
    await store.close();
  }
}

/** `--json`: one JSON document on stdout. Otherwise a human-readable line per entry on stdout. */
export function output(json: boolean, value: Record<string, unknown>): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  for (const [key, v] of Object.entries(value))
    process.stdout.write(`${key}: ${Array.isArray(v) ? v.join(' ') : String(v)}\n`);
}

/** Comma- or space-separated scopes, each one of ALL_SCOPES; at least one. */
export const parseScopes = (value: string) => {
  const scopes = value.split(/[,\s]+/).filter(Boolean);
  const unknown = scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new InvalidArgumentError(`unknown scopes: ${unknown.join(', ')}; known scopes: ${ALL_SCOPES.join(', ')}`);
  if (scopes.length === 0) throw new InvalidArgumentError(`give at least one scope of: ${ALL_SCOPES.join(', ')}`);
  return scopes;
};

/** A whole number in decimal digits (no sign, hex or exponent). */
export const positiveInt = (value: string) => {
  if (!/^[0-9]{1,15}$/.test(value)) throw new InvalidArgumentError(`not a non-negative integer: ${value}`);
  return Number(value);
};

export const port = (value: string) => {
  const n = positiveInt(value);
  if (n > 65_535) throw new InvalidArgumentError(`not a port (0–65535): ${value}`);
  return n;
};

/** A host or address to listen on: a name, an IPv4 address or an IPv6 address, nothing else. */
export const host = (value: string) => {
  if (!/^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|[0-9A-Fa-f:.]{2,45})$/.test(value))
    throw new InvalidArgumentError(`not a host name or address: ${value} (e.g. 127.0.0.1, 0.0.0.0, ::)`);
  return value;
};

/** A name of 1–200 characters, trimmed. */
export const nonEmptyName = (value: string) => {
  const name = value.trim();
  if (name.length === 0) throw new InvalidArgumentError('must not be empty');
  if (name.length > 200) throw new InvalidArgumentError('must be at most 200 characters');
  return name;
};

export const timeZone = (value: string) => {
  if (!isTimeZone(value))
    throw new InvalidArgumentError(`not an IANA time zone: ${value} (e.g. America/Sao_Paulo, UTC)`);
  return value;
};

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration such as `90s`, `30m`, `24h` or `7d` (at most 90 days), in seconds. */
export function duration(value: string): number {
  const match = /^([0-9]{1,6})([smhd])$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * (UNIT_SECONDS[match[2] ?? ''] ?? 0) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds > 90 * 86_400)
    throw new InvalidArgumentError('a duration such as 90s, 30m, 24h or 7d (at most 90d)');
  return seconds;
}
