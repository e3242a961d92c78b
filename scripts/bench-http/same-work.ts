// A peer for `npm run bench`: the same work as the service, written the obvious way on the same stack —
// Express 5, `express.json()`, the stock express-openapi-validator middleware on our contract, one
// route per benchmarked operation, the bearer token looked up per request with the store's own query,
// the operation's own handler (the same SQL on the same database file, the same JSON) and `res.json`.
// What it lacks is what the service adds around the work: the per-operation chains, request ids,
// traces, security headers, access lines, metrics, ETags. The bench checks its answers equal the
// service's before measuring.
// Usage: node --import tsx scripts/bench-http/same-work.ts <db file> <port> <recordings.json>
import express, { type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { validatorOptions } from '../../server/http/validator/validator.js';
import { openPeer } from './peer.js';

const { port, recordings, config, index, operationOf, work } = await openPeer();

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.set('query parser', 'simple');
app.get('/health', (_req, res) => res.json({ status: 'ok' }));
app.use(express.json({ limit: '1mb' }));
app.use(OpenApiValidator.middleware(validatorOptions(index, config, true)));

for (const r of recordings) {
  const { operation, route } = operationOf(r);
  const method = r.method.toLowerCase() as 'get' | 'patch' | 'post';
  app[method](route, async (req: Request, res: Response) => {
    try {
      const input = { params: req.params, query: req.query, body: req.body };
      const reply = await work(operation, req.headers.authorization, input, req, res);
      res.status(reply.status).json(reply.body);
    } catch (err) {
      const status = (err as { status?: number }).status ?? 500;
      res.status(status).json({ error: String((err as Error).message) });
    }
  });
}
app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: unknown) => {
  res.status(err.status ?? 500).json({ error: err.message });
});
app.listen(port, '127.0.0.1');
