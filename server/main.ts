// Starts the API server and composes it: checks the settings (server/settings.ts), opens (and
// migrates) the store, lets the sandbox prepare (its demo company on an empty database, its docs page:
// server/sandbox/startup.ts; never in production, which starts empty and says how to create a
// company), builds the contract index, chooses the services (the card issuer, the rate-limit store),
// creates the app, listens, and shuts down gracefully on SIGTERM/SIGINT (draining first: SHUTDOWN_DRAIN_MS).
// In production every line it writes is one JSON object; the sandbox prints a banner for people. With `workers > 1` a primary
// process prepares the database once (migrations, secrets, demo data), then forks that many workers
// sharing the port (node:cluster); workers keep nothing of their own that changes an answer.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import { createApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { checkSettings } from './settings.js';
import type { Store } from './db/store.js';
import { openStoreAtStart } from './db/open-at-start.js';
import { resolveSecrets } from './areas/auth/public.js';
import { systemClock } from './lib/clock.js';
import { createLogger } from './http/pipeline/logger.js';
import type { Logger } from 'pino';
import { unavailableIssuer } from './kit/card-issuer.js';
import { createSimulatedIssuer } from './sandbox/issuer.js';
import { rateLimitStore } from './http/ops/rate-limit-store.js';
import { fallbackShare } from './http/ops/rate-limit-fallback.js';
import { appMetrics, processMetrics } from './http/ops/metrics.js';
import { metricsServer } from './http/ops/metrics-endpoint.js';
import { reportToPrimary, serveClusterMetrics } from './http/ops/metrics-cluster.js';
import { ALL_SCOPES, listCompanies } from './areas/auth/public.js';
import { prepareSandbox } from './sandbox/startup.js';
import { createDeliveryWorker } from './areas/webhooks/worker.js';
import { recordExpiries } from './areas/vcn/public.js';
import { purgeAuditEntries } from './areas/audit/public.js';
import { expireUnusedClients } from './areas/auth/public.js';
import { purgeKeys } from './idempotency/store.js';
import { docsPath } from './docs.js';
import { contract } from './contract/index.js';
import { productionDocsPath } from './contract/sandbox.js';
import { createHttpServer, listen, shutdownGracefully } from './http/server.js';
import { watchReadiness } from './http/ops/readiness.js';

/** DATABASE_START_TIMEOUT_MS (checked by checkSettings). */
const startTimeoutMs = () => Number(process.env.DATABASE_START_TIMEOUT_MS || 30_000);

/** The sandbox listens on this machine only unless told otherwise (`--host 0.0.0.0` in a container). */
export const DEFAULT_HOST = '127.0.0.1';

interface ServeOptions {
  port: number;
  /** The address to listen on; default DEFAULT_HOST. */
  host?: string;
  dbPath: string;
  /** Processes serving the port (node:cluster); 1 serves from this process. */
  workers?: number;
}

function configFor(store: Store, port: number): { env: NodeJS.ProcessEnv; base: Config } {
  const env = { ...process.env, PORT: String(port) };
  // Attachments: next to a SQLite file; in the database on PostgreSQL (replicas share nothing else),
  // unless DATA_DIR names a shared folder.
  return { env, base: loadConfig(env, { dataDir: process.env.DATA_DIR ?? store.filesDir }) };
}

/**
 * Migrations, secrets, demo company and docs: done once, before any request is served. Production
 * makes no demo company and builds no docs page: it serves the one `npm run build` rendered.
 */
async function prepare(store: Store, port: number) {
  const { db } = store;
  const { env, base } = configFor(store, port);
  const config = { ...base, secrets: await resolveSecrets(db, env, base.secrets) };
  const demo = config.production ? undefined : await prepareSandbox(db, config);
  const hint = demo ? [] : await restartHint(store);
  const page = config.sandboxHelpers ? docsPath : productionDocsPath(docsPath);
  if (config.production && !existsSync(page))
    hint.push(`  The docs page ${page} is not built: /docs answers 404 until \`npm run build\``);
  return { config, demo, hint };
}

/** A worker reads what the primary prepared (the secrets it stored). */
async function workerConfig(store: Store, port: number) {
  const { env, base } = configFor(store, port);
  return {
    config: { ...base, secrets: await resolveSecrets(store.db, env, base.secrets) },
    demo: undefined,
    hint: [],
  };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

/** The start-up announcement: the banner for people in the sandbox, one JSON line in production (no secret in either of production's). */
function announce(prepared: Prepared, workers: number, host: string, logger: Logger): void {
  const { config, hint } = prepared;
  if (!config.production) {
    process.stdout.write(banner(prepared, workers, host));
    return;
  }
  logger.info(
    {
      baseUrl: config.baseUrl,
      host,
      workers,
      docs: `${config.baseUrl}/docs`,
      openapi: `${config.baseUrl}/openapi.json`,
      tokenUrl: `${config.baseUrl}/oauth/token`,
      cardIssuer: config.cardIssuer,
    },
    'Company Finance Service listening',
  );
  if (hint.length > 0) logger.info({ hint: hint.map((line) => line.trim()) }, hint[0]?.trim() ?? '');
  if (!config.publicBaseUrl)
    logger.warn(
      { setting: 'PUBLIC_BASE_URL' },
      'PUBLIC_BASE_URL is not set: links, Location headers and the served contract name the host and scheme each request came to (X-Forwarded-Host/-Proto only from TRUST_PROXY peers); set it to the public address',
    );
}

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

/** On a database that already has companies: the commands that give credentials for it; on an empty one, how to make the first. */
async function restartHint({ db, description }: Store): Promise<string[]> {
  const companies = (await listCompanies(db)).slice(0, 5).map((c) => ({ id: c.companyId, name: c.name }));
  // The description, not the location given: a PostgreSQL URL's password never reaches a log line.
  const dbOption = ` --db ${shellQuote(description)}`;
  const first = companies[0];
  if (!first)
    return [
      `  Database ${description} holds no company. Create one and its first API client (its secret is printed once):`,
      `    npx finance company create${dbOption} --name '<company name>'`,
      `  Demo data on purpose: npx finance seed --demo${dbOption}`,
    ];
  return [
    `  Database ${description} already has companies: ${companies.map((c) => `${c.id} (${c.name})`).join(', ')}`,
    '  New credentials (a client secret is shown only when it is created):',
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
  checkSettings({ ...process.env, PORT: String(port), DATABASE_URL: dbPath });
  if (workers > 1 && cluster.isPrimary) return primary(port, host, dbPath, workers);
  const store = await openStoreAtStart(dbPath, startTimeoutMs());
  const { db } = store;
  const prepared = cluster.isWorker ? await workerConfig(store, port) : await prepare(store, port);
  const { config } = prepared;
  const logger = createLogger(config.logLevel);
  const limits = await rateLimitStore({
    db,
    clock: systemClock,
    shared: store.shared || cluster.isWorker,
    redisUrl: process.env.REDIS_URL,
    logger,
    fallbackShare: fallbackShare(config.rateLimitPerMinute, config.rateLimitFallbackReplicas, workers),
  });

  const metrics = appMetrics(db);
  if (cluster.isWorker) reportToPrimary([processMetrics(), metrics.registry]);
  // Where the store lets processes hear each other's changes (PostgreSQL), token lookups and statement
  // data versions can be kept between requests (server/db/change-signals.ts); PG_KEEP_VERSION_MS=0 keeps nothing.
  const signals = config.keepVersionMs > 0 ? await store.changeSignals?.() : undefined;
  // `/ready` answers from probes run in the background, never from a query of its own (http/ops/readiness.ts).
  const readiness = watchReadiness(
    { database: (timeoutMs) => store.probe(timeoutMs), ...(limits.ping ? { redis: limits.ping } : {}) },
    logger,
  );
  await readiness.start();
  // The composition: the store, the contract index, the services (the card issuer) and the app.
  const index = contract({ sandbox: config.sandboxHelpers, cards: config.vcnEnabled });
  const app = createApp({
    db,
    index,
    clock: systemClock,
    config,
    logger,
    rateLimitStore: limits.store,
    metrics,
    readiness,
    signals,
    // Chosen here, never by default: production has no simulated money (CARD_ISSUER, server/settings.ts).
    issuer: config.cardIssuer === 'simulated' ? createSimulatedIssuer() : unavailableIssuer(),
  });
  const server = await listen(createHttpServer(app), port, host).catch((err: unknown) => {
    throw listenError(err, host, port, 'HOST', 'PORT');
  });
  const metricsPort = config.metricsPort
    ? await listen(metricsServer(metrics, config.metricsToken), config.metricsPort, host).catch((err: unknown) => {
        throw listenError(err, host, config.metricsPort ?? 0, 'HOST', 'METRICS_PORT');
      })
    : undefined;
  // Webhook deliveries: every replica runs a worker; the queue hands each delivery to one of them.
  const worker = createDeliveryWorker({
    db,
    clock: systemClock,
    logger,
    allowPrivate: config.webhooksAllowPrivate,
    housekeeping: [
      (now) => recordExpiries(db, now),
      (now) => purgeKeys(db, now),
      (now) => purgeAuditEntries(db, now, config.auditRetentionDays),
      () => expireUnusedClients(db, systemClock, config.clientUnusedExpiryDays),
    ],
  });
  worker.start();
  if (!cluster.isWorker) announce(prepared, 1, host, logger);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // First the drain: `/ready` fails while requests are still served, so a load balancer stops
    // sending before the listener closes; then the requests in flight finish.
    readiness.drain();
    const { shutdownDrainMs: drainMs, shutdownGraceMs: graceMs } = config;
    logger.info(
      { signal, drainMs, graceMs },
      drainMs > 0
        ? 'shutting down: /ready answers 503 while the load balancer stops sending, then in-flight requests finish'
        : 'shutting down: finishing in-flight requests',
    );
    void shutdownGracefully(server, {
      drainMs,
      graceMs,
      onClosed: async () => {
        readiness.stop();
        await worker.stop();
        await limits.close();
        await signals?.close();
        metricsPort?.close();
        await store.close();
        logger.info('stopped');
        process.exit(0);
      },
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return server;
}

/**
 * A failure to listen, naming the setting behind it: an address that does not resolve or is not
 * this machine's is HOST's; a port in use or not allowed is PORT's (METRICS_PORT's for /metrics).
 */
function listenError(err: unknown, host: string, port: number, hostSetting: string, portSetting: string): Error {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const setting = ['ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EAI_NONAME'].includes(code) ? hostSetting : portSetting;
  return new Error(`${setting}: cannot listen on ${host}:${port}: ${(err as Error).message}`);
}

/** The cluster primary: prepares the database, forks the workers, restarts one that dies, stops them on a signal. */
async function primary(port: number, host: string, dbPath: string, workers: number): Promise<undefined> {
  const store = await openStoreAtStart(dbPath, startTimeoutMs());
  const prepared = await prepare(store, port);
  await store.close();
  const logger = createLogger(prepared.config.logLevel);

  serveClusterMetrics();
  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork({ PORT: String(port), HOST: host });
  cluster.on('listening', (_worker, address) => {
    if (address.port !== port) return;
    listening += 1;
    if (listening === workers) announce(prepared, workers, host, logger);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // `workerPid`: pino's own `pid` is the primary's.
    logger.error({ workerPid: worker.process.pid, code, signal }, 'worker exited; starting another');
    fork();
  });
  for (let i = 0; i < workers; i += 1) fork();

  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    const { shutdownDrainMs, shutdownGraceMs } = prepared.config;
    setTimeout(() => process.exit(0), shutdownDrainMs + shutdownGraceMs + 5_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return undefined;
}
