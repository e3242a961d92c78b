// Real `finance serve` processes on one database, for the rules that must hold across processes:
// the test opens the same database for setup and checks, and talks to each process over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Db } from '../../server/db/database.js';
import { openStore } from '../../server/db/store.js';
import { systemClock } from '../../server/lib/clock.js';
import { ALL_SCOPES, createClient as createApiClient, createCompany } from '../../server/areas/auth/store.js';
import { quickHash } from './secrets.js';
import { apiFor, type Api } from './server.js';
import { SERVER_SECRETS } from '../../server/settings.js';
import { sandboxEnv } from './database.js';

export { apiFor };

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr. */
  stderr(): string;
  /** Everything the process wrote to stdout: the banner, then its logs (LOG_LEVEL=warn unless given). */
  stdout(): string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Fresh server secrets, as `finance secrets generate` prints them: production refuses to start without. */
export const productionSecrets = (): Record<string, string> =>
  Object.fromEntries(SERVER_SECRETS.map((name) => [name, randomBytes(32).toString('hex')]));

/**
 * The environment of a production process (NODE_ENV, fresh secrets, no load shedding: this
 * machine's load is not what tests are about; no drain on stop: no load balancer is told). Production
 * serves the docs page `npm run build` rendered and never builds it: the run's global setup builds it
 * when missing or stale.
 */
export async function productionEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { NODE_ENV: 'production', OVERLOAD_MAX_LAG_MS: '0', SHUTDOWN_DRAIN_MS: '0', ...productionSecrets(), ...extra };
}

/** Starts `finance serve` on `location` and resolves once it listens (the sandbox's banner, or production's JSON line). */
export async function startServerProcess(
  location: string,
  options: { env?: Record<string, string>; workers?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const args = [
    'bin/finance.js',
    'serve',
    '--db',
    location,
    '--port',
    String(port),
    ...(options.workers ? ['--workers', String(options.workers)] : []),
  ];
  const sandbox = options.env?.NODE_ENV === 'production' ? {} : sandboxEnv(location);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    ...sandbox,
    ...options.env,
  };
  const child = spawn('node', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // The sandbox's banner says it listens; production's start-up line is at info, which LOG_LEVEL=warn
  // hides, so /health is asked then (a line the test reads must not be waited for by /health alone:
  // the server can answer before the line reaches this process).
  const lineShown = env.NODE_ENV !== 'production' || ['info', 'debug', 'trace'].includes(env.LOG_LEVEL ?? '');
  let poll: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Token URL') || out.includes('"tokenUrl"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}\n${err}`)));
    if (!lineShown)
      poll = setInterval(() => {
        fetch(`http://127.0.0.1:${port}/health`).then(
          (res) => res.ok && resolve(),
          () => undefined,
        );
      }, 200);
  }).finally(() => clearInterval(poll));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    stderr: () => err,
    stdout: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface SharedCompany {
  companyId: string;
  token: string;
  /** One typed client per server process, all as this company. */
  apis: Api[];
}

/** A company created in the database, with a token obtained from the first process. */
export async function sharedCompany(db: Db, servers: ServerProcess[]): Promise<SharedCompany> {
  const companyId = await createCompany(db, systemClock, {
    name: `Company ${Math.random().toString(36).slice(2, 8)} Ltda`,
  });
  const { clientId, clientSecret } = await createApiClient(
    db,
    systemClock,
    { companyId, scopes: ALL_SCOPES },
    undefined,
    quickHash,
  );
  const res = await fetch(`${servers[0]!.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status}`);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { companyId, token, apis: servers.map((s) => apiFor(s.baseUrl, token)) };
}

/**
 * Migrates `location`, adds a company (so no demo data is seeded), starts one process per entry of
 * `workers` on it (each `finance serve --workers n`).
 */
export async function startProcesses(
  location: string,
  workers: number[],
  env?: Record<string, string>,
): Promise<{ db: Db; servers: ServerProcess[] }> {
  const db = (await openStore(location)).db;
  await createCompany(db, systemClock, { name: 'Bootstrap Ltda' });
  const servers = await Promise.all(workers.map((n) => startServerProcess(location, { env, workers: n })));
  return { db, servers };
}
