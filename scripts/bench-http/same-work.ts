// A peer for `npm run bench`: the same work as the service, written the obvious way on the same stack —
// Express 5, `express.json()`, the stock express-openapi-validator middleware on our contract, one
// route per benchmarked operation, the bearer token looked up per request with the store's own query,
// the operation's own handler (the same SQL on the same database file, the same JSON) and `res.json`.
// What it lacks is what the service adds around the work: the per-operation chains, request ids,
// traces, security headers, access lines, metrics, ETags. The bench checks its answers equal the
// service's before measuring.
// Usage: node --import tsx scripts/bench-http/same-work.ts <db file> <port> <recordings.json>
import { readFileSync } from 'node:fs';
import express, { type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { validatorOptions } from '../../server/http/validator.js';
import { contract } from '../../server/contract/index.js';
import { loadConfig } from '../../server/config.js';
import { openStore } from '../../server/db/store.js';
import { resolveSecrets } from '../../server/areas/auth/server-secrets.js';
import { lookupToken } from '../../server/areas/auth/store.js';
import { operations } from '../../server/operations.js';
import { systemClock, offsetClock } from '../../server/lib/clock.js';
import { unavailableIssuer } from '../../server/kit/card-issuer.js';
import type { HandlerContext } from '../../server/kit/handler.js';
import type { Recording } from './replay.js';

const [file, port, recordingsFile] = process.argv.slice(2);
const recordings = JSON.parse(readFileSync(recordingsFile!, 'utf8')) as Recording[];
const { db } = await openStore(file!);
const env = { ...process.env, NODE_ENV: 'production' };
const base = loadConfig(env);
const config = { ...base, secrets: await resolveSecrets(db, env, base.secrets) };
const index = contract({ sandbox: false });

type AnyHandler = (input: unknown, ctx: HandlerContext) => Promise<{ status: number; body?: unknown }>;

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.set('query parser', 'simple');
app.get('/health', (_req, res) => res.json({ status: 'ok' }));
app.use(express.json({ limit: '1mb' }));
app.use(OpenApiValidator.middleware(validatorOptions(index, config, true)));

for (const r of recordings) {
  const path = r.url.split('?')[0]!;
  const found = index.match(r.method, path);
  if (found.kind !== 'operation') throw new Error(`${r.method} ${path} is not an operation of the contract`);
  const { operation } = found;
  const handler = (operations as unknown as Record<string, AnyHandler>)[operation.operationId]!;
  const route = operation.path.replace(/\{([^}]+)\}/g, ':$1');
  const method = r.method.toLowerCase() as 'get' | 'patch' | 'post';
  app[method](route, async (req: Request, res: Response) => {
    try {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const found = await lookupToken(db, systemClock, token);
      if (!found.grant) {
        res.status(401).json({ error: 'Unauthorized' });
        return;
      }
      const { clockOffsetMs, ...grant } = found.grant;
      const auth = { ...grant, companyClock: offsetClock(systemClock, clockOffsetMs) };
      const ctx: HandlerContext = {
        db,
        clock: systemClock,
        config,
        issuer: unavailableIssuer(),
        auth,
        requestId: '',
        req,
        res,
        logFields: () => undefined,
      };
      const reply = await handler({ params: req.params, query: req.query, body: req.body }, ctx);
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
app.listen(Number(port), '127.0.0.1');
// Exit (and write a --cpu-prof profile) when the bench stops it.
process.once('SIGTERM', () => process.exit(0));
