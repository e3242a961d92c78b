// The data of `npm run bench`: a database file with one company and its seeded transactions, an
// access token, and the requests to drive (each with the ids and the cursor it needs).
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { SERVER_SECRETS } from '../../server/settings.js';
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { isPostgresUrl, openStore } from '../../server/db/store.js';
import { systemClock } from '../../server/lib/clock.js';
import { ALL_SCOPES, createClient, createCompany, issueToken } from '../../server/areas/auth/store.js';
import { seedCompany } from '../../server/cli/seed.js';
import type { Recording } from './replay.js';

export const COMPANY = 'Benchmark HTTP Comércio Ltda';
/** Creates go to a second company, so the lists benchmarked do not grow during the run. */
const WRITES_COMPANY = 'Benchmark HTTP Escrita Ltda';

interface BenchData {
  token: string;
  writesToken: string;
  userId: string;
  transactionId: number;
}

/** Seeds `file` when it does not exist yet (reused otherwise) and issues a fresh day-long token. */
export async function prepareDatabase(file: string, transactions: number): Promise<BenchData> {
  // A SQLite file is reused when it existed before the store opened it (opening creates it); a
  // PostgreSQL database when it holds the seeded company.
  const existed = existsSync(file);
  const db = (await openStore(file)).db;
  const fresh = isPostgresUrl(file)
    ? !(await db.selectFrom('companies').select('id').where('name', '=', COMPANY).executeTakeFirst())
    : !existed;
  try {
    let companyId: string;
    let writesId: string;
    if (fresh) {
      process.stderr.write(`seeding a company with ${transactions} banking transactions into ${file}…\n`);
      companyId = await createCompany(db, systemClock, { name: COMPANY });
      await seedCompany(db, { companyId, transactions, seed: 1, clock: systemClock });
      writesId = await createCompany(db, systemClock, { name: WRITES_COMPANY });
    } else {
      const idOf = async (name: string) =>
        (await db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
      companyId = await idOf(COMPANY);
      writesId = await idOf(WRITES_COMPANY);
      process.stderr.write(`reusing ${file}\n`);
    }
    const tokenOf = async (id: string) => {
      const client = await createClient(db, systemClock, { companyId: id, scopes: ALL_SCOPES });
      return issueToken(db, systemClock, {
        clientId: client.clientId,
        companyId: id,
        scopes: [...ALL_SCOPES],
        ttlSeconds: 86_400,
      });
    };
    const token = await tokenOf(companyId);
    const writesToken = await tokenOf(writesId);
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', companyId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const txn = await db
      .selectFrom('banking_transactions')
      .select('id')
      .where('company_id', '=', companyId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { token, writesToken, userId: user.id, transactionId: txn.id };
  } finally {
    await db.destroy();
  }
}

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query. */
  url: string;
  /** A body for each request: POSTs get a unique one so they keep creating. */
  body?: () => string;
  /** Sent as the second company (creates). */
  writes?: boolean;
}

const FILTERED = '/statements/v1/banking?limit=20&wasConciled=false&amountGt=20&sorting=transactionDate:desc';

/** The benchmarked requests; the filtered page's cursor is read from the real server's first page. */
export async function endpoints(baseUrl: string, data: BenchData): Promise<Endpoint[]> {
  const first = await fetch(baseUrl + FILTERED, { headers: { Authorization: `Bearer ${data.token}` } });
  const key = ((await first.json()) as { nextPageStartKey?: string }).nextPageStartKey;
  if (!key) throw new Error(`the filtered banking page has no next page (status ${first.status})`);
  let n = 0;
  const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  return [
    { name: 'GET banking page 1', method: 'GET', url: '/statements/v1/banking?limit=20' },
    {
      name: 'GET banking filtered, cursor',
      method: 'GET',
      url: `${FILTERED}&nextPageStartKey=${encodeURIComponent(key)}`,
    },
    { name: 'GET cost centers', method: 'GET', url: '/cost-centers/v1/cost-centers' },
    { name: 'GET one user', method: 'GET', url: `/users/v1/users/${data.userId}` },
    {
      name: 'PATCH banking notes',
      method: 'PATCH',
      url: `/statements/v1/banking/${data.transactionId}`,
      body: () => JSON.stringify({ notes: `bench note ${(n += 1)}` }),
    },
    {
      name: 'POST cost center',
      method: 'POST',
      url: '/cost-centers/v1/cost-centers',
      body: () => JSON.stringify({ name: `Bench ${run} ${(n += 1)}` }),
      writes: true,
    },
  ];
}

/**
 * The server secrets production refuses to start without: fresh for this run, the same for every
 * server process the bench starts (processes that share a database share its secrets).
 */
export const BENCH_SECRETS: Record<string, string> = Object.fromEntries(
  SERVER_SECRETS.map((name) => [name, randomBytes(32).toString('hex')]),
);

/** Drives one endpoint on `port` with autocannon: `connections` at once for `seconds`, its token and body. */
export function driveEndpoint(port: number, token: string, e: Endpoint, connections: number, seconds: number) {
  const headers = { authorization: `Bearer ${token}`, ...(e.body ? { 'content-type': 'application/json' } : {}) };
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: e.method,
        path: e.url,
        headers,
        ...(e.body ? { setupRequest: (req: object) => ({ ...req, body: e.body!() }) } : {}),
      },
    ],
  } as autocannon.Options);
}

/** The token a request is sent with: the writes company's for the creates. */
export const tokenFor = (data: BenchData, e: Endpoint) => (e.writes ? data.writesToken : data.token);

/** The server's exact answer to one request (what the replaying servers and the peers' routes are made from). */
export async function record(baseUrl: string, token: string, e: Endpoint): Promise<Recording> {
  const res = await fetch(baseUrl + e.url, {
    method: e.method,
    headers: { Authorization: `Bearer ${token}`, ...(e.body ? { 'Content-Type': 'application/json' } : {}) },
    body: e.body?.(),
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status >= 400) throw new Error(`${e.name}: the server answered ${res.status} ${body.toString()}`);
  const headers: Record<string, string> = {};
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  res.headers.forEach((value, name) => {
    if (!skip.has(name)) headers[name] = value;
  });
  return { method: e.method, url: e.url, status: res.status, headers, body: body.toString('base64') };
}

/** The same-work peer must answer what the service answered (JSON deep-equal), or the bench stops. */
export async function sameAnswers(
  peer: { name: string; port: number },
  data: BenchData,
  all: Endpoint[],
  recordings: Recording[],
) {
  for (const [i, e] of all.entries()) {
    const res = await fetch(`http://127.0.0.1:${peer.port}${e.url}`, {
      method: e.method,
      headers: {
        Authorization: `Bearer ${tokenFor(data, e)}`,
        ...(e.body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: e.body?.(),
    });
    const theirs = await res.text();
    const ours = Buffer.from(recordings[i]!.body, 'base64').toString();
    const json = (text: string) => (text ? (JSON.parse(text) as unknown) : undefined);
    // A create makes a new resource each time: its status is compared, not its id.
    const same = e.method === 'POST' || isDeepStrictEqual(json(theirs), json(ours));
    if (res.status !== recordings[i]!.status || !same)
      throw new Error(
        `${peer.name} answers ${e.name} otherwise:\n ours ${res.status}: ${ours.slice(0, 400)}\n its: ${theirs.slice(0, 400)}`,
      );
  }
}

/** The environment every benchmarked server runs with: production, the bench's secrets, no rate limit. */
export const productionEnv = (dir: string): Record<string, string> => ({
  ...BENCH_SECRETS,
  NODE_ENV: 'production',
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'info',
  DATA_DIR: join(dir, 'files'),
});

/** Resolves once the server answers /health; throws when its process ended or after a minute. */
export async function ready(server: { name: string; port: number; child?: { exitCode: number | null } }) {
  for (let i = 0; i < 600; i += 1) {
    try {
      await fetch(`http://127.0.0.1:${server.port}/health`);
      return;
    } catch {
      if (server.child && server.child.exitCode !== null)
        throw new Error(`${server.name} exited with ${server.child.exitCode}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${server.name} did not start`);
}
