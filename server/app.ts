// The HTTP application. It never listens: server/main.ts does, tests use an ephemeral port.
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Store } from 'express-rate-limit';
import type { Db } from './db/database.js';
import type { Clock } from './lib/clock.js';
import type { Config } from './config.js';
import type { KeptReads, Services } from './kit/handler.js';
import { Kept, type ChangeSignals } from './db/change-signals.js';
import { createLogger } from './http/pipeline/logger.js';
import { appMetrics, type AppMetrics } from './http/ops/metrics.js';
import { metricsEndpoint } from './http/ops/metrics-endpoint.js';
import {
  AUTHORIZATION_SERVER_PATH,
  PROTECTED_RESOURCE_PATH,
  authorizationServerMetadata,
  metadataEndpoint,
  protectedResourceMetadata,
} from './http/oauth-metadata.js';
import { watchReadiness, type Readiness } from './http/ops/readiness.js';
import { selectOne } from './db/probe.js';
import { eventLoopLag, type LagProbe } from './http/ops/overload.js';
import { admission } from './http/ops/admission.js';
import { pageContentSecurityPolicy } from './http/mechanisms/security-headers.js';
import { prelude } from './http/pipeline/prelude.js';
import { pipeline } from './http/pipeline/pipeline.js';
import { AnswerCache } from './http/mechanisms/answer-cache.js';
import { operations, preflights } from './operations.js';
import { idempotency } from './idempotency/middleware.js';
import { json } from './http/mechanisms/json-answer.js';
import { unknownPath } from './http/pipeline/operation.js';
import { outageLog } from './db/outage-log.js';
import { errorHandler, lastResort } from './http/pipeline/error-handler.js';
import { ApiError } from './kit/errors.js';
import { loadBundle, type ContractIndex } from './contract/index.js';
import { servedBaseUrl, withBaseUrl } from './http/served-contract.js';
import { productionDocsPath, servedBundle } from './contract/sandbox.js';
import { changelogPath, docsPath } from './docs.js';
import { precompress, sendPrecompressed, type Precompressed } from './http/mechanisms/precompressed.js';
import { demoSamples } from './sandbox/docs-demo.js';
import type { CardIssuer } from './kit/card-issuer.js';
import { authorizeRoutes } from './areas/apps/public.js';
import { mcpRateLimit } from './mcp/limits.js';

interface AppOptions {
  db: Db;
  /** The contract index the app serves (main.ts builds it for the configuration). */
  index: ContractIndex;
  clock: Clock;
  config: Config;
  logger?: Logger;
  /** The card processor, chosen by the caller (main.ts from CARD_ISSUER; the sandbox and tests: the simulated one). */
  issuer: CardIssuer;
  /** How far behind the event loop is (load shedding); the measured event-loop delay when not given. */
  lagProbe?: () => LagProbe;
  /** Where rate-limit counters live; this process's memory when not given. */
  rateLimitStore?: Store;
  /** The app's metrics registry; a new one when not given. */
  metrics?: AppMetrics;
  /** What `/ready` answers from (main.ts probes the store and Redis); `select 1` through `db`, probed from the first `/ready`, when not given. */
  readiness?: Readiness;
  /** The store's change signals (PostgreSQL): token lookups and data versions are kept while they are heard. */
  signals?: ChangeSignals;
}

export function createApp({
  db,
  index,
  clock,
  config,
  logger = createLogger(config.logLevel),
  issuer,
  lagProbe = () => eventLoopLag(),
  rateLimitStore,
  metrics = appMetrics(db),
  readiness = watchReadiness({ database: () => selectOne(db) }, logger),
  signals,
}: AppOptions) {
  const services: Services = {
    db,
    clock,
    config,
    issuer,
    index,
    kept: signals ? keptReads(signals, config) : undefined,
  };
  const docsPage = config.sandboxHelpers ? docsPath : productionDocsPath(docsPath);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Paths are the contract's, exactly: `/Statements/v1/banking` and `/statements/v1/banking/` are not it.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // Which peers may name the client's address (req.ip: rate limits, authentication throttling).
  app.set('trust proxy', config.trustProxy);
  // Every JSON answer of this app is written once, the same way (http/mechanisms/json-answer.ts).
  app.response.json = json as typeof app.response.json;

  app.use(prelude({ ...config, logger, metrics, outage: outageLog(logger) }));
  // Past OVERLOAD_MAX_IN_FLIGHT requests at once, 503 at once rather than a queue for the store.
  const admit = admission(config.overloadMaxInFlight, metrics.registry);
  if (admit) app.use(admit);
  // The contract's operations: each request matched once, then its operation's chain (http/pipeline/pipeline.ts).
  app.use(
    pipeline({
      handlers: operations,
      preflights,
      idempotency,
      services,
      answers: config.answerCacheBytes > 0 ? new AnswerCache(config.answerCacheBytes) : undefined,
      index,
      config,
      logger,
      lagProbe,
      rateLimitStore,
    }),
  );

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', readiness.handler);
  // OAuth discovery (RFC 8414, RFC 9728): what the token endpoint grants and where to find it.
  app.get(AUTHORIZATION_SERVER_PATH, metadataEndpoint(config, authorizationServerMetadata));
  app.get(PROTECTED_RESOURCE_PATH, metadataEndpoint(config, protectedResourceMetadata));
  // The consent page of the authorization-code grant (HTML for a person, outside the contract).
  app.use(authorizeRoutes({ db, clock, config, baseUrlOf: (req) => servedBaseUrl(req, config) }));
  if (!config.metricsPort) app.get('/metrics', metricsEndpoint(metrics, config));
  const publicBundle = servedBundle(loadBundle('public'), config.sandboxHelpers);
  const publicText = JSON.stringify(publicBundle);
  // The docs page as served to one base URL, and its CSP (the inline scripts' hashes change with it).
  // In the sandbox its samples use the demo company's ids (server/sandbox/docs-demo.ts).
  const docsPages = new Map<string, { mtimeMs: number; body: Precompressed; csp: string }>();
  const demo = config.production ? undefined : demoSamples(db, publicBundle, clock);
  const servedDocs = async (baseUrl: string) => {
    const { mtimeMs } = statSync(docsPage);
    const samples = demo ? await demo() : { key: '', apply: (html: string) => html };
    const key = `${baseUrl}\n${samples.key}`;
    const cached = docsPages.get(key);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const html = withBaseUrl(samples.apply(readFileSync(docsPage, 'utf8')), baseUrl);
    // Compressed once per page made, not per request.
    const page = { mtimeMs, body: await precompress(html), csp: pageContentSecurityPolicy(html) };
    if (docsPages.size > 16) docsPages.clear();
    docsPages.set(key, page);
    return page;
  };
  // The contract as served to one base URL, compressed once (~330 KB as text, a twentieth as brotli),
  // sent with an ETag and `Cache-Control: no-cache` (a 304 on If-None-Match).
  const contracts = new Map<string, Promise<Precompressed>>();
  const servedContract = (baseUrl: string) => {
    let made = contracts.get(baseUrl);
    if (!made) {
      if (contracts.size > 16) contracts.clear();
      made = precompress(withBaseUrl(publicText, baseUrl));
      contracts.set(baseUrl, made);
    }
    return made;
  };
  app.get('/openapi.json', async (req, res) => {
    const contract = await servedContract(servedBaseUrl(req, config));
    res.type('application/json');
    sendPrecompressed(req, res, contract);
  });
  app.get('/docs', async (req, res, next) => {
    if (!existsSync(docsPage)) return next(new ApiError(404, 'The docs are not built: run `npm run build`'));
    const page = await servedDocs(servedBaseUrl(req, config));
    res.setHeader('Content-Security-Policy', page.csp);
    res.type('text/html');
    sendPrecompressed(req, res, page.body);
  });

  // The API as MCP tools for assistants (docs/mcp.md); each tool call comes back through the pipeline.
  // The MCP SDK (and zod with it) is loaded on the first call, never by a server that has no endpoint.
  if (config.mcpEndpoint) {
    const rateLimit = mcpRateLimit(config.rateLimitPerMinute, rateLimitStore);
    const load = async () => {
      const { mcpEndpoint } = await import('./mcp/http.js');
      const { apiTokens } = await import('./mcp/bearer.js');
      const { packageVersion } = await import('./mcp/server.js');
      return mcpEndpoint({
        bundle: publicBundle,
        checkBearer: apiTokens(db, clock),
        config,
        rateLimit,
        version: packageVersion(),
      });
    };
    let endpoint: ReturnType<typeof load> | undefined;
    app.all('/mcp', async (req, res, next) => {
      endpoint ??= load();
      await (await endpoint)(req, res, next);
    });
  }
  app.get('/changelog', (_req, res) => {
    res.type('text/plain; charset=utf-8').send(readFileSync(changelogPath, 'utf8'));
  });

  app.use((_req: Request, _res: Response, next: NextFunction) => next(unknownPath()));
  app.use(errorHandler(logger, index, config));
  // Whatever still reaches the end of the chain gets the JSON 500, never Express's HTML page.
  const fallback = lastResort(logger, index, config);
  const routed = app as unknown as { handle(req: Request, res: Response, done?: NextFunction): void };
  const handle = routed.handle.bind(app);
  routed.handle = (req, res, done) => handle(req, res, done ?? ((err?: unknown) => fallback(err, req, res)));
  return app;
}

/** What a process keeps between requests while the store's changes are heard (server/db/change-signals.ts). */
function keptReads(signals: ChangeSignals, config: Config): KeptReads {
  const now = () => performance.now();
  return {
    // A token's expiry is checked at each use; a minute bounds what a lost signal could cost.
    tokens: new Kept<unknown>(signals, { maxAgeMs: 60_000, maxEntries: 50_000, now }),
    // PG_KEEP_VERSION_MS (a second): an ingest run that died stops holding the feeds back by time
    // alone, never signalled.
    statementVersions: new Kept<string>(signals, { maxAgeMs: config.keepVersionMs, maxEntries: 50_000, now }),
  };
}
