// Starts the API server: opens (and migrates) the database, creates the demo company on an empty
// database, listens, and shuts down gracefully on SIGTERM/SIGINT.
import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { resolveSecrets } from './db/server-secrets.js';
import { systemClock } from './lib/clock.js';
import { createLogger } from './http/logger.js';
import { ALL_SCOPES, createClient, createCompany } from './areas/auth/store.js';
import { seedCompany } from './cli/seed.js';
import { createDeliveryWorker } from './areas/webhooks/worker.js';
import { recordExpiries } from './areas/vcn/store/expiry.js';
import { buildDocs, docsPath } from './docs.js';
import { createHttpServer, listen, shutdownGracefully } from './http/server.js';

export interface ServeOptions {
  port: number;
  dbPath: string;
}

async function ensureDemoCompany(db: Db) {
  const any = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  const companyId = await createCompany(db, systemClock, { name: 'Demo Comércio e Serviços Ltda' });
  const client = await createClient(db, systemClock, { companyId, scopes: ALL_SCOPES });
  await seedCompany(db, { companyId, transactions: 2_000, seed: 1, clock: systemClock });
  return client;
}

export async function serve({ port, dbPath }: ServeOptions): Promise<Server> {
  const env = { ...process.env, PORT: String(port) };
  const db = await openDatabase(dbPath);
  const base = loadConfig(env, { dataDir: process.env.DATA_DIR ?? join(dbPath === ':memory:' ? './data' : join(dbPath, '..'), 'files') });
  const config = { ...base, secrets: await resolveSecrets(db, env, base.secrets) };
  const logger = createLogger(config.logLevel);
  const demo = await ensureDemoCompany(db);
  if (!existsSync(docsPath)) await buildDocs();

  const app = createApp({ db, clock: systemClock, config, logger });
  const server = await listen(createHttpServer(app), port);
  // Webhook deliveries: every replica runs a worker; the queue hands each delivery to one of them.
  const worker = createDeliveryWorker({
    db, clock: systemClock, logger, allowPrivate: config.webhooksAllowPrivate, housekeeping: [(now) => recordExpiries(db, now)],
  });
  worker.start();

  const lines = [
    `Company Finance Service listening on ${config.baseUrl}`,
    `  API docs:      ${config.baseUrl}/docs`,
    `  OpenAPI:       ${config.baseUrl}/openapi.json`,
    `  Token URL:     ${config.baseUrl}/oauth/token`,
    ...(demo
      ? [
          `  Demo company:  ${demo.companyId}`,
          `  client_id:     ${demo.clientId}`,
          `  client_secret: ${demo.clientSecret}   (shown once; store it now)`,
        ]
      : [`  Database ${dbPath} already has companies; create credentials with: npx finance client create --company <id> --scopes ...`]),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
    void shutdownGracefully(server, {
      graceMs: config.shutdownGraceMs,
      onClosed: async () => {
        await worker.stop();
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
