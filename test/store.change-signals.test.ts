// What a server process keeps between requests on PostgreSQL (token lookups, the statements' data
// version behind the polls' 304s and the lists' kept answers: server/db/change-signals.ts) is never
// answered after a change committed: two `finance serve` processes on one database; a write in one
// process, a revocation from outside both (the CLI's store functions, another connection), and each
// process answers the change well before what it kept would have aged out (versions kept 30 s here,
// tokens a minute).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../server/db/database.js';
import { systemClock } from '../server/lib/clock.js';
import {
  ALL_SCOPES,
  createClient as createApiClient,
  createCompany,
  revokeClient,
} from '../server/areas/auth/store.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { apiFor, startProcesses, type ServerProcess } from './support/processes.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

let dir: string;
let db: Db;
let servers: ServerProcess[];

beforeAll(async () => {
  if (!onPostgres) return;
  dir = mkdtempSync(join(tmpdir(), 'change-signals-'));
  ({ db, servers } = await startProcesses(await freshDatabase(dir), [1, 1], { PG_KEEP_VERSION_MS: '30000' }));
}, 120_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((s) => s.stop()));
  await db?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A company with one client and a token from the first process. */
async function company() {
  const companyId = await createCompany(db, systemClock, {
    name: `Signals ${Math.random().toString(36).slice(2, 8)} Ltda`,
  });
  const client = await createApiClient(db, systemClock, { companyId, scopes: ALL_SCOPES });
  const res = await fetch(`${servers[0]!.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const account = await createAccount(db, companyId);
  const ids = await createBankingTransactions(db, companyId, account, [{}, {}, {}]);
  return { companyId, clientId: client.clientId, token, ids, apis: servers.map((s) => apiFor(s.baseUrl, token)) };
}

const PAGE = '/statements/v1/banking';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds until `probe` gives true (tried every 10 ms), or Infinity after `limitMs`. */
async function msUntil(probe: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await probe()) return performance.now() - started;
    await sleep(10);
  }
  return Number.POSITIVE_INFINITY;
}

describe.runIf(onPostgres)('kept reads on PostgreSQL', () => {
  it('when a process polls with the current ETag, then 304; after a write in this process, at once 200 with a new ETag', async () => {
    const acme = await company();
    const api = acme.apis[0]!;
    const first = await api.GET(PAGE, { params: { query: {} } });
    const tag = first.response.headers.get('ETag')!;
    for (let i = 0; i < 3; i += 1) {
      const again = await api.GET(PAGE, { params: { query: {}, header: { 'If-None-Match': tag } } });
      expect(again.response.status).toBe(304);
    }
    const patched = await api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: acme.ids[0]! } },
      body: { notes: 'changed in this process' },
    });
    expect(patched.response.status).toBe(204);
    const after = await api.GET(PAGE, { params: { query: {}, header: { 'If-None-Match': tag } } });
    expect(after.response.status).toBe(200);
    expect(after.response.headers.get('ETag')).not.toBe(tag);
  });

  it('when another process writes, then this one stops answering 304 at once, not when the version ages out', async () => {
    const acme = await company();
    const [a, b] = acme.apis as [ReturnType<typeof apiFor>, ReturnType<typeof apiFor>];
    const tag = (await b.GET(PAGE, { params: { query: {} } })).response.headers.get('ETag')!;
    // Kept in b from now on.
    expect((await b.GET(PAGE, { params: { query: {}, header: { 'If-None-Match': tag } } })).response.status).toBe(304);
    await a.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: acme.ids[1]! } },
      body: { notes: 'changed in the other process' },
    });
    const ms = await msUntil(
      async () =>
        (await b.GET(PAGE, { params: { query: {}, header: { 'If-None-Match': tag } } })).response.status === 200,
      10_000,
    );
    expect(ms).toBeLessThan(5_000);
  });

  it('when another process writes, then this one stops answering the list it kept at once', async () => {
    const acme = await company();
    const [a, b] = acme.apis as [ReturnType<typeof apiFor>, ReturnType<typeof apiFor>];
    // Computed once, then answered from b's kept answers (http/mechanisms/answer-cache.ts).
    for (let i = 0; i < 2; i += 1) expect((await b.GET(PAGE, { params: { query: {} } })).response.status).toBe(200);
    await a.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: acme.ids[2]! } },
      body: { notes: 'kept nowhere' },
    });
    const ms = await msUntil(async () => {
      const { data } = await b.GET(PAGE, { params: { query: {} } });
      return data?.transactions.some((t) => t.notes === 'kept nowhere') ?? false;
    }, 10_000);
    expect(ms).toBeLessThan(5_000);
  });

  it('when a client is revoked outside the server, then every process refuses its token at once, not a minute later', async () => {
    const acme = await company();
    for (const api of acme.apis) expect((await api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
    await revokeClient(db, systemClock, acme.clientId);
    for (const api of acme.apis) {
      const ms = await msUntil(
        async () => (await api.GET('/cost-centers/v1/cost-centers')).response.status === 401,
        3_000,
      );
      expect(ms).toBeLessThan(5_000);
    }
  });
});
