// Starts the real application on an ephemeral port for a test file, with a fresh database (a SQLite
// file in a temporary folder, opened as `finance serve` opens it, or a new PostgreSQL database under
// TEST_DATABASE=postgres; or `dbPath`), a manual clock and response validation on.
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import type { Server } from 'node:http';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../generated/openapi.js';
import { createApp } from '../../server/app.js';
import { contract, type ContractIndex } from '../../server/contract/index.js';
import type { Db } from '../../server/db/database.js';
import { openStore } from '../../server/db/store.js';
import { migratedDatabase, onPostgres } from './database.js';
import { ManualClock } from '../../server/lib/clock.js';
import { testConfig, type Config } from '../../server/config.js';
import { ALL_SCOPES, createClient as createApiClient, createCompany } from '../../server/areas/auth/store.js';
import { quickHash } from './secrets.js';
import { createLogger } from '../../server/http/pipeline/logger.js';
import type { LagProbe } from '../../server/http/ops/overload.js';
import { createHttpServer, listen } from '../../server/http/server.js';
import type { Logger } from 'pino';
import type { Store } from 'express-rate-limit';
import { createSimulatedIssuer, type SimulatedIssuer } from '../../server/sandbox/issuer.js';
import { createDeliveryWorker, type DeliveryWorker } from '../../server/areas/webhooks/worker.js';
import { recordExpiries } from '../../server/areas/vcn/store/expiry.js';
import { purgeKeys } from '../../server/idempotency/store.js';
import { beginNewHistory } from '../../server/areas/statements/history.js';

export type Api = Client<paths>;

export interface TestCompany {
  companyId: string;
  clientId: string;
  clientSecret: string;
  token: string;
  /** The typed client, authenticated as this company. */
  api: Api;
}

export interface TestServer {
  baseUrl: string;
  /** The store's location (SQLite file or postgres:// URL), as `--db` takes it. */
  location: string;
  db: Db;
  /** The contract index the app serves. */
  index: ContractIndex;
  clock: ManualClock;
  config: Config;
  /** The simulated card issuer of this server: tests make it fail. */
  issuer: SimulatedIssuer;
  /** The webhook delivery worker: running unless `deliveries: 'manual'` (then call `tick()`). */
  worker: DeliveryWorker;
  /** An unauthenticated typed client. */
  anonymous: Api;
  newCompany(options?: { name?: string; scopes?: readonly string[]; timeZone?: string }): Promise<TestCompany>;
  /** A typed client sending the given bearer token. */
  apiWithToken(token: string): Api;
  close(): Promise<void>;
}

interface TestServerOptions {
  config?: Partial<Config>;
  clock?: ManualClock;
  dbPath?: string;
  logger?: Logger;
  /** Stands in for the measured event-loop delay (load shedding). */
  lagProbe?: () => LagProbe;
  /** Rate-limit counters shared through a store (the database, Redis) instead of this process's memory. */
  rateLimitStore?: Store;
  /** 'auto' (default): webhooks are delivered by a running worker; 'manual': only by `worker.tick()`. */
  deliveries?: 'auto' | 'manual';
}

const querySerializer = { array: { style: 'form', explode: false } } as const;

/** The typed client against `baseUrl`, sending `token` as the bearer. */
export function apiFor(baseUrl: string, token: string): Api {
  const api = createClient<paths>({ baseUrl, querySerializer });
  const auth: Middleware = {
    onRequest: ({ request }) => {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  api.use(auth);
  return api;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const own = options.dbPath ? undefined : await migratedDatabase();
  const store = await openStore(options.dbPath ?? own!);
  const { db } = store;
  const clock = options.clock ?? new ManualClock();
  // A copy of the migrated template is another store: its own history, as `finance backup` gives a copy.
  if (own) await beginNewHistory(db, clock.now());
  const config = testConfig(options.config);
  const issuer = createSimulatedIssuer();
  const index = contract({ sandbox: config.sandboxHelpers, cards: config.vcnEnabled });
  const app = createApp({
    db,
    index,
    clock,
    config,
    issuer,
    logger: options.logger ?? createLogger('silent'),
    lagProbe: options.lagProbe,
    rateLimitStore: options.rateLimitStore,
  });
  const server: Server = await listen(createHttpServer(app), 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config.baseUrl = baseUrl;
  const worker = createDeliveryWorker({
    db,
    clock,
    logger: createLogger('silent'),
    allowPrivate: true,
    intervalMs: 50,
    housekeeping: [(now) => recordExpiries(db, now), (now) => purgeKeys(db, now)],
  });
  if (options.deliveries !== 'manual') worker.start();

  const apiWithToken = (token: string): Api => apiFor(baseUrl, token);

  let companies = 0;
  return {
    baseUrl,
    location: options.dbPath ?? own!,
    db,
    index,
    clock,
    config,
    issuer,
    worker,
    anonymous: createClient<paths>({ baseUrl, querySerializer }),
    apiWithToken,
    async newCompany({ name, scopes = ALL_SCOPES, timeZone } = {}) {
      companies += 1;
      const companyId = await createCompany(db, clock, { name: name ?? `Company ${companies} Ltda`, timeZone });
      const { clientId, clientSecret } = await createApiClient(db, clock, { companyId, scopes }, undefined, quickHash);
      const res = await fetch(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }),
      });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
      const { access_token: token } = (await res.json()) as { access_token: string };
      return { companyId, clientId, clientSecret, token, api: apiWithToken(token) };
    },
    close: async () => {
      await worker.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await store.close();
      if (own && !onPostgres) rmSync(dirname(own), { recursive: true, force: true });
    },
  };
}
