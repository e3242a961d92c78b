// Spec-driven hostile inputs: for every operation of the internal contract, its example request
// with one part made hostile (test/support/hostile.ts). Every answer is below 500; every 4xx is
// a status the operation declares, in the body its schema gives; and a rejected request leaves
// the database exactly as it was.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../server/contract/index.js';
import { seedCompany } from '../server/cli/seed.js';
import { onPostgres } from './support/database.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { fundedCompany } from './support/factories/vcn.js';
import {
  candidatesOf,
  operationsOf,
  type Candidate,
  type Json,
  type Operation,
  type PathIds,
  unsent,
} from './support/hostile.js';

const SEEDS = [1, 2];
/** Changed by rejected requests on purpose: failed client authentications are counted. */
const VOLATILE_TABLES = new Set(['auth_failures']);

let server: TestServer;
let acme: TestCompany;
let ids: PathIds;
let tables: string[];

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
  await seedCompany(server.db, { companyId: acme.companyId, transactions: 20, seed: 3, clock: server.clock });
  const one = async (query: string) =>
    String((await sql<{ id: string }>`${sql.raw(query)}`.execute(server.db)).rows[0]?.id ?? '');
  const c = acme.companyId.replace(/'/g, '');
  const known: Record<string, string> = {
    '/statements/v1/banking/{transactionId}': await one(
      `select id from banking_transactions where company_id = '${c}' and status = 2 limit 1`,
    ),
    '/statements/v1/banking/{transactionId}/receipt': await one(
      `select id from banking_transactions where company_id = '${c}' and status = 2 limit 1`,
    ),
    '/statements/v1/credit-card/{transactionId}': await one(
      `select id from credit_card_transactions where company_id = '${c}' limit 1`,
    ),
    '/cost-centers/v1/cost-centers/{id}': await one(`select id from cost_centers where company_id = '${c}' limit 1`),
    '/suppliers/v1/suppliers/{id}': await one(`select id from suppliers where company_id = '${c}' limit 1`),
    '/categories/v1/categories/{id}': await one(`select id from categories where company_id = '${c}' limit 1`),
    '/users/v1/users/{userId}': await one(`select id from users where company_id = '${c}' limit 1`),
  };
  ids = (path) => known[path] || undefined;
  tables = (
    await (onPostgres
      ? sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`
      : sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
    ).execute(server.db)
  ).rows
    .map((r) => r.name)
    .filter((t) => !VOLATILE_TABLES.has(t));
  if (onPostgres) await countWrites();
}, 60_000);
afterAll(async () => server.close());

async function snapshot(): Promise<string> {
  if (onPostgres) {
    // One statement hashing every table where it lives (rows sorted as text: PostgreSQL returns them
    // in no fixed order).
    const parts = tables.map(
      (t) =>
        `(select md5(coalesce(string_agg(x::text, chr(10) order by x::text), '')) from "${t.replace(/"/g, '""')}" x)`,
    );
    const { rows } = await sql<{ h: string }>`select ${sql.raw(parts.join(" || ' ' || "))} as h`.execute(server.db);
    return rows[0]!.h;
  }
  const hash = createHash('sha256');
  for (const table of tables) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(server.db);
    hash
      .update(table)
      .update(
        JSON.stringify(rows, (_k, v: unknown) =>
          Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? String(v) : v,
        ),
      );
  }
  return hash.digest('hex');
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction | undefined>();
function errorSchemaValidator(op: Operation, status: number): ValidateFunction | undefined | 'undeclared' {
  const response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  if (!response) return 'undeclared';
  const key = `${op.operationId} ${status}`;
  if (!validators.has(key)) {
    const schema = (response.content as Record<string, Json> | undefined)?.['application/json']?.schema as
      | Json
      | undefined;
    validators.set(key, schema ? ajv.compile(schema) : undefined);
  }
  return validators.get(key);
}

async function send(c: Candidate) {
  const headers: Record<string, string> = { ...c.headers };
  if (c.operation.security) headers.Authorization = `Bearer ${acme.token}`;
  const res = await fetch(`${server.baseUrl}${c.path}${c.query ? `?${c.query}` : ''}`, {
    method: c.method,
    headers,
    body: c.body,
    redirect: 'manual',
  }).catch((err: Error) => {
    throw new Error(`${c.operation.operationId} ${c.method} ${c.path.slice(0, 80)} [${c.label}]: ${err.message}`, {
      cause: err,
    });
  });
  const text = await res.text();
  return { status: res.status, text, contentType: res.headers.get('content-type') ?? '' };
}

/**
 * PostgreSQL: a trigger on every watched table of this file's database takes a number from a sequence
 * for each row written (and each truncate), so `changes()` moves with this database's writes only, as
 * SQLite's counts rows changed: a statement that changes no row moves neither (a sequence is not rolled
 * back: a write undone by its transaction moves it too, which only costs a snapshot comparison).
 */
async function countWrites(): Promise<void> {
  await sql`create sequence hostile_writes`.execute(server.db);
  await sql`create function hostile_wrote() returns trigger language plpgsql
    as $$ begin perform nextval('hostile_writes'); return null; end $$`.execute(server.db);
  for (const table of tables) {
    await sql`create trigger hostile_wrote after insert or update or delete on ${sql.table(table)}
      for each row execute function hostile_wrote()`.execute(server.db);
    await sql`create trigger hostile_truncated after truncate on ${sql.table(table)}
      for each statement execute function hostile_wrote()`.execute(server.db);
  }
}

/**
 * Moves with any write. SQLite: the file's data version as this query's connection sees it (it moves
 * when another connection commits: the server writes on its writer connection, and a query outside a
 * transaction runs on the reader) and the rows this connection changed. PostgreSQL: the write counter.
 */
const changes = async () =>
  String(
    (
      await (onPostgres
        ? sql<{ n: string }>`select last_value::text || is_called::text as n from hostile_writes`
        : sql<{ n: string }>`select (select data_version from pragma_data_version) || '/' || total_changes() as n`
      ).execute(server.db)
    ).rows[0]!.n,
  );

let state = '';
let changed = '';

/** What is wrong with the answer to `c`, or undefined. */
async function judge(c: Candidate): Promise<string | undefined> {
  const { status, text, contentType } = await send(c);
  const where = `${c.operation.operationId} ${c.method} ${c.path.slice(0, 80)} [${c.label}] → ${status}`;
  const now = await changes();
  const wrote = now !== changed;
  changed = now;
  if (status >= 500) return `${where}: ${text.slice(0, 200)}`;
  if (status < 400) {
    if (wrote) state = await snapshot();
    return undefined;
  }
  // Rejected: nothing may have changed (but the failed-authentication counter).
  if (wrote && (await snapshot()) !== state) {
    state = await snapshot();
    return `${where}: the database changed`;
  }
  const validate = errorSchemaValidator(c.operation, status);
  if (validate === 'undeclared') return `${where}: status not declared by the operation`;
  if (validate) {
    if (!contentType.startsWith('application/json')) return `${where}: ${contentType} instead of JSON`;
    const body = JSON.parse(text) as unknown;
    if (!validate(body))
      return `${where}: body ${text.slice(0, 160)} does not match the error schema: ${ajv.errorsText(validate.errors)}`;
  }
  return undefined;
}

describe('hostile inputs from the contract', () => {
  const operations = operationsOf(loadBundle('internal'));
  /** Each distinct request is sent once, by the first seed that makes it. */
  const requested = new Set<string>();

  it('when the contract is read, then every operation is covered', () => {
    expect(operations.length).toBeGreaterThan(30);
  });

  it.each(SEEDS)(
    'when every operation gets its hostile candidates (seed %i), then never a 5xx, always a declared 4xx in its error body, and a rejected request changes nothing',
    async (seed) => {
      const problems: string[] = [];
      let sent = 0;
      state = await snapshot();
      changed = await changes();
      for (const op of operations) {
        for (const c of unsent(candidatesOf(op, ids, seed), requested)) {
          const problem = await judge(c);
          sent += 1;
          if (problem) problems.push(problem);
        }
      }
      if (process.env.HOSTILE_REPORT)
        writeFileSync(process.env.HOSTILE_REPORT, `${sent} sent\n${problems.join('\n')}\n`);
      expect(problems, `${problems.length} of ${sent} candidates failed:\n${problems.slice(0, 40).join('\n')}`).toEqual(
        [],
      );
    },
    240_000,
  );
});
