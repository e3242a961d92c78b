// `GET /metrics` in Prometheus text format. Open in the sandbox. With `METRICS_TOKEN` set it needs
// `Authorization: Bearer <token>` (401 otherwise); in production without a token it is not served
// on the API port at all (404). With `METRICS_PORT` set it is served only there (metricsServer),
// for a scraper on the private network.
import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { Registry } from 'prom-client';
import type { Config } from '../../config.js';
import { ApiError } from '../../kit/errors.js';
import { clusterMetrics } from './metrics-cluster.js';
import { scrape, type AppMetrics } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  return given.length > 0 && timingSafeEqual(digest(given), digest(token));
}

const text = (metrics: AppMetrics) => (cluster.isWorker ? clusterMetrics() : scrape(metrics));

/** The API port's `/metrics` handler (not mounted when `METRICS_PORT` is set). */
export function metricsEndpoint(metrics: AppMetrics, config: Pick<Config, 'production' | 'metricsToken'>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (config.metricsToken) {
      if (!tokenMatches(req.headers.authorization, config.metricsToken)) {
        return next(
          new ApiError(401, 'Metrics need a valid token', [], { 'WWW-Authenticate': 'Bearer realm="metrics"' }),
        );
      }
    } else if (config.production) {
      return next(new ApiError(404, 'No such resource or operation'));
    }
    try {
      res.type(Registry.PROMETHEUS_CONTENT_TYPE).send(await text(metrics));
    } catch (err) {
      next(err);
    }
  };
}

/** `METRICS_PORT`: a server of `/metrics` only, with the token check when `METRICS_TOKEN` is set. */
export function metricsServer(metrics: AppMetrics, metricsToken: string | undefined): Server {
  return createServer((req, res) => {
    const answer = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    };
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return answer(404, 'Not Found\n');
    if (metricsToken && !tokenMatches(req.headers.authorization, metricsToken)) return answer(401, 'Unauthorized\n');
    text(metrics).then(
      (body) => answer(200, body, Registry.PROMETHEUS_CONTENT_TYPE),
      () => answer(503, 'Metrics are unavailable\n'),
    );
  });
}
