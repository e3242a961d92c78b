// The HTTP application. It never listens: server/main.ts does, tests use an ephemeral port.
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Store } from 'express-rate-limit';
import type { Db } from './db/database.js';
import type { Clock } from './lib/clock.js';
import type { Config } from './config.js';
import type { Services } from './kit/handler.js';
import { requestId } from './http/request-id.js';
import { corsMiddleware } from './http/cors.js';
import { createLogger, httpLogger } from './http/logger.js';
import { traceContext } from './http/trace-context.js';
import { appMetrics, type AppMetrics } from './http/metrics.js';
import { metricsEndpoint } from './http/metrics-endpoint.js';
import { readiness, type ReadinessCheck } from './http/readiness.js';
import { authenticate } from './http/auth.js';
import { rateLimiter } from './http/rate-limit.js';
import { eventLoopLag, shedOverload, type LagProbe } from './http/overload.js';
import { contractValidator, recordBodySize } from './http/validator.js';
import { strictNumbers } from './http/strict-numbers.js';
import { assertJsonShape, maxMembersOf, wellFormedBody } from './http/json-shape.js';
import { pageContentSecurityPolicy, securityHeaders } from './http/security-headers.js';
import { uploadGate } from './areas/statements/attachments/upload-gate.js';
import { rejectBracketedArrays } from './http/query-arrays.js';
import { checkMediaType, readMediaType } from './http/media-type.js';
import { dispatch } from './http/dispatch.js';
import { notModifiedEarly } from './http/conditional.js';
import { compose } from './http/compose.js';
import { matchOperation, NOT_FOUND_MESSAGE, operationOf } from './http/operation.js';
import { outageLog, type OutageLog } from './db/outage-log.js';
import { idempotency, keepRawBody } from './idempotency/middleware.js';
import { errorHandler, lastResort } from './http/error-handler.js';
import { ApiError } from './kit/errors.js';
import { contract, loadBundle } from './contract/index.js';
import { servedBaseUrl, withBaseUrl } from './http/served-contract.js';
import { productionDocsPath, servedBundle } from './contract/sandbox.js';
import { changelogPath, docsPath } from './docs.js';
import { precompress, sendPrecompressed, type Precompressed } from './http/precompressed.js';
import { demoSamples } from './sandbox/docs-demo.js';
import type { CardIssuer } from './kit/card-issuer.js';
import { createSimulatedIssuer } from './sandbox/issuer.js';

interface AppOptions {
  db: Db;
  clock: Clock;
  config: Config;
  logger?: Logger;
  /** The card processor; the simulated one when not given. */
  issuer?: CardIssuer;
  /** How far behind the event loop is (load shedding); the measured event-loop delay when not given. */
  lagProbe?: () => LagProbe;
  /** Where rate-limit counters live; this process's memory when not given. */
  rateLimitStore?: Store;
  /** The app's metrics registry; a new one when not given. */
  metrics?: AppMetrics;
  /** What `/ready` asks besides the database (Redis, when configured). */
  readinessChecks?: Record<string, ReadinessCheck>;
}

const UPLOAD_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'];
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Longer URLs are a 414 (Node itself answers 431 past 16 KB of headers, URL included). */
const MAX_URL_LENGTH = 8192;

/** Each API answer tells the outage log whether the database was there (logged once per change). */
const watchDatabase = (outage: OutageLog) => (_req: Request, res: Response, next: NextFunction) => {
  res.once('finish', () => {
    if (res.locals.dependencyFailure === 'database') outage.failed(res.locals.dependencyError);
    else if (res.statusCode < 400 && operationOf(res)) outage.succeeded();
  });
  next();
};

export function createApp({
  db,
  clock,
  config,
  logger = createLogger(config.logLevel),
  issuer = createSimulatedIssuer(),
  lagProbe = () => eventLoopLag(),
  rateLimitStore,
  metrics = appMetrics(db),
  readinessChecks,
}: AppOptions) {
  const services: Services = { db, clock, config, issuer };
  const index = contract({ sandbox: config.sandboxHelpers });
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

  app.use(
    compose(
      requestId,
      traceContext,
      metrics.record,
      securityHeaders(config.baseUrl),
      corsMiddleware(config.corsOrigins),
      httpLogger(logger),
      watchDatabase(outageLog(logger)),
      (req: Request, _res: Response, next: NextFunction) => {
        next(
          req.originalUrl.length > MAX_URL_LENGTH
            ? new ApiError(414, `The request URL is longer than ${MAX_URL_LENGTH} characters`)
            : undefined,
        );
      },
    ),
  );

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', readiness(db, readinessChecks));
  if (!config.metricsPort) app.get('/metrics', metricsEndpoint(metrics, config));
  const publicBundle = servedBundle(loadBundle('public'), config.sandboxHelpers);
  const publicText = JSON.stringify(publicBundle);
  // The docs page as served to one base URL, and its CSP (the inline scripts' hashes change with it).
  // In the sandbox its samples use the demo company's ids (server/sandbox/docs-demo.ts).
  const docsPages = new Map<string, { mtimeMs: number; body: Precompressed; csp: string }>();
  const demo = config.production ? undefined : demoSamples(db, publicBundle);
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
  app.get('/openapi.json', (req, res) => {
    res.type('application/json').send(withBaseUrl(publicText, servedBaseUrl(req, config)));
  });
  app.get('/docs', async (req, res, next) => {
    if (!existsSync(docsPage)) return next(new ApiError(404, 'The docs are not built: run `npm run build`'));
    const page = await servedDocs(servedBaseUrl(req, config));
    res.setHeader('Content-Security-Policy', page.csp);
    res.type('text/html');
    sendPrecompressed(req, res, page.body);
  });

  app.get('/changelog', (_req, res) => {
    res.type('text/plain; charset=utf-8').send(readFileSync(changelogPath, 'utf8'));
  });

  // The one match of the request against the contract (404 and 405, before any credential check),
  // then, before the body is read: load, identity, rate, query and media type, upload URLs.
  // With virtual cards off, their paths are unknown: 404 before the match could answer 405.
  const cardsOff = (req: Request, _res: Response, next: NextFunction) =>
    next(
      req.path.startsWith('/credit-cards/v1/vcns')
        ? new ApiError(404, NOT_FOUND_MESSAGE, [], {}, { reason: 'unknown_path' })
        : undefined,
    );
  app.use(
    compose(
      ...(config.vcnEnabled ? [] : [cardsOff]),
      matchOperation(index),
      shedOverload(config.overloadMaxLagMs, lagProbe),
      authenticate(services),
      ...(config.rateLimitPerMinute > 0 ? [rateLimiter(config.rateLimitPerMinute, rateLimitStore)] : []),
      notModifiedEarly(db),
      rejectBracketedArrays,
      readMediaType,
      checkMediaType(),
      uploadGate(services),
    ),
  );
  // The body, by media type, and the query's numbers read strictly.
  app.use(
    compose(
      express.json({
        limit: '1mb',
        verify: (req, res, buf) => {
          recordBodySize(req, res, buf);
          assertJsonShape(buf, maxMembersOf((req as Request).path));
          keepRawBody(req as Request, res as Response, buf);
        },
      }),
      express.urlencoded({ extended: false, limit: '16kb', verify: recordBodySize }),
      wellFormedBody,
      express.raw({ type: UPLOAD_TYPES, limit: MAX_UPLOAD_BYTES }),
      strictNumbers(),
    ),
  );
  app.use(contractValidator(index, config));
  app.use(idempotency(services, logger));
  app.use(dispatch(services, index));
  app.use((_req: Request, _res: Response, next: NextFunction) =>
    next(new ApiError(404, NOT_FOUND_MESSAGE, [], {}, { reason: 'unknown_path' })),
  );
  app.use(errorHandler(logger, index, config));
  // Whatever still reaches the end of the chain gets the JSON 500, never Express's HTML page.
  const fallback = lastResort(logger, index, config);
  const routed = app as unknown as { handle(req: Request, res: Response, done?: NextFunction): void };
  const handle = routed.handle.bind(app);
  routed.handle = (req, res, done) => handle(req, res, done ?? ((err?: unknown) => fallback(err, req, res)));
  return app;
}
