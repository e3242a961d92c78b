// Starts the API server: opens (and migrates) the database, creates the demo company on an empty
// database, listens, and shuts down gracefully on SIGTERM/SIGINT. With `workers > 1` a primary
// process prepares the database once (migrations, secrets, demo data), then forks that many workers
// sharing the port (node:cluster); workers keep nothing of their own that changes an answer.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { describeLocation, isPostgresUrl, openDatabase, type Db } from './db/database.js';
import { resolveSecrets } from './db/server-secrets.js';
import { systemClock } from './lib/clock.js';
import { createLogger } from './http/logger.js';
import { rateLimitStore } from './http/rate-limit-store.js';
import { ALL_SCOPES, createClient, createCompany } from './areas/auth/store.js';
import { seedCompany } from './cli/seed.js';
import { createDeliveryWorker } from './areas/webhooks/worker.js';
import { recordExpiries } from './areas/vcn/store/expiry.js';
import { buildDocs, docsPath } from './docs.js';
import { createHttpServer, listen, shutdownGracefully } from './http/server.js';

/** The sandbox listens on this machine only unless told otherwise (`--host 0.0.0.0` in a container). */
export const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions {
  port: number;
  /** The address to listen on; default DEFAULT_HOST. */
  host?: string;
  dbPath: string;
  /** Processes serving the port (node:cluster); 1 serves from this process. */
  workers?: number;
}

async function ensureDemoCompany(db: Db) {
  const any = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  const companyId = await createCompany(db, systemClock, { name: 'Demo Comércio e Serviços Ltda' });
  const client = await createClient(db, systemClock, { companyId, scopes: ALL_SCOPES });
  await seedCompany(db, { companyId, transactions: 2_000, seed: 1, clock: systemClock });
  return client;
}

function configFor(dbPath: string, port: number): { env: NodeJS.ProcessEnv; base: Config } {
  const env = { ...process.env, PORT: String(port) };
  // Attachments: next to a SQLite file; in the database on PostgreSQL (replicas share nothing else),
  // unless DATA_DIR names a shared folder.
  const files = isPostgresUrl(dbPath) ? '' : join(dbPath === ':memory:' ? './data' : join(dbPath, '..'), 'files');
  return { env, base: loadConfig(env, { dataDir: process.env.DATA_DIR ?? files }) };
}

/** Migrations, secrets, demo company and docs: done once, before any request is served. */
async function prepare(db: Db, dbPath: string, port: number) {
  const { env, base } = configFor(dbPath, port);
  const config = { ...base, secrets: await resolveSecrets(db, env, base.secrets) };
  const demo = await ensureDemoCompany(db);
  const hint = demo ? [] : await restartHint(db, dbPath);
  if (!existsSync(docsPath)) await buildDocs();
  return { config, demo, hint };
}

/** A worker reads what the primary prepared (the secrets it stored). */
async function workerConfig(db: Db, dbPath: string, port: number) {
  const { env, base } = configFor(dbPath, port);
  return { config: { ...base, secrets: await resolveSecrets(db, env, base.secrets) }, demo: undefined, hint: [] };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

function banner({ config, demo, hint }: Prepared, workers: number, host: string): string {
  const where = ['127.0.0.1', 'localhost', '::1'].includes(host) ? 'this machine only' : `address ${host}`;
  const lines = [
    `Company Finance Service listening on ${config.baseUrl} (${where}${workers > 1 ? `, ${workers} workers` : ''})`,
    `  API docs:      ${config.baseUrl}/docs`,
    `  OpenAPI:       ${config.baseUrl}/openapi.json`,
    `  Token URL:     ${config.baseUrl}/oauth/token`,
    ...(demo
      ? [
          `  Demo company:  ${demo.companyId}`,
          `  client_id:     ${demo.clientId}`,
          `  client_secret: ${demo.clientSecret}   (shown once; store it now)`,
        ]
      : hint),
  ];
  return `${lines.join('\n')}\n`;
}

/** On a database that already has companies: the commands that give credentials for it. */
async function restartHint(db: Db, dbPath: string): Promise<string[]> {
  const companies = await db.selectFrom('companies').select(['id', 'name']).orderBy('created_at').limit(5).execute();
  const dbOption = ` --db ${shellQuote(dbPath)}`;
  const first = companies[0];
  return [
    `  Database ${describeLocation(dbPath)} already has companies: ${companies.map((c) => `${c.id} (${c.name})`).join(', ')}`,
    '  New credentials (the demo secret was shown only when the database was created):',
    `    npx finance client create${dbOption} --company ${first?.id ?? '<id>'} --scopes ${ALL_SCOPES.join(',')}`,
    `  Every company: npx finance company list${dbOption}`,
  ];
}

const shellQuote = (value: string) => (/^[\w./:@?=&%-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

export async function serve({
  port,
  host = DEFAULT_HOST,
  dbPath,
  workers = 1,
}: ServeOptions): Promise<Server | undefined> {
  if (workers > 1 && cluster.isPrimary) return primary(port, host, dbPath, workers);
  const db = await openDatabase(dbPath);
  const prepared = cluster.isWorker ? await workerConfig(db, dbPath, port) : await prepare(db, dbPath, port);
  const { config } = prepared;
  const logger = createLogger(config.logLevel);
  const store = await rateLimitStore({
    db,
    clock: systemClock,
    shared: isPostgresUrl(dbPath) || cluster.isWorker,
    redisUrl: process.env.REDIS_URL,
  });

  const app = createApp({ db, clock: systemClock, config, logger, rateLimitStore: store.store });
  const server = await listen(createHttpServer(app), port, host);
  // Webhook deliveries: every replica runs a worker; the queue hands each delivery to one of them.
  const worker = createDeliveryWorker({
    db,
    clock: systemClock,
    logger,
    allowPrivate: config.webhooksAllowPrivate,
    housekeeping: [(now) => recordExpiries(db, now)],
  });
  worker.start();
  if (!cluster.isWorker) process.stdout.write(banner(prepared, 1, host));

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
    void shutdownGracefully(server, {
      graceMs: config.shutdownGraceMs,
      onClosed: async () => {
        await worker.stop();
        await store.close();
        await db.destroy();
        logger.info('stopped');
        process.exit(0);
      },
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return server;
}

/** The cluster primary: prepares the database, forks the workers, restarts one that dies, stops them on a signal. */
async function primary(port: number, host: string, dbPath: string, workers: number): Promise<undefined> {
  const db = await openDatabase(dbPath);
  const prepared = await prepare(db, dbPath, port);
  await db.destroy();

  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork({ PORT: String(port), HOST: host });
  cluster.on('listening', () => {
    listening += 1;
    if (listening === workers) process.stdout.write(banner(prepared, workers, host));
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    fork();
  });
  for (let i = 0; i < workers; i += 1) fork();

  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 35_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return undefined;
}
