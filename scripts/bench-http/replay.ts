// A baseline server for `npm run bench`: answers each benchmarked request with the exact bytes
// (status, headers, body) the real server answered for it, so only the framework's own cost remains.
// `validator` is bare Express with the JSON body parser and the stock express-openapi-validator
// middleware on our contract (configured as production configures the validator) before replaying:
// the floor a service on the stock framework cannot beat, with no handler code at all.
// Usage: node --import tsx scripts/bench-http/replay.ts <express|validator|node> <recordings.json> <port>
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { validatorOptions } from '../../server/http/validator/validator.js';
import { contract } from '../../server/contract/index.js';
import { loadConfig } from '../../server/config.js';

export interface Recording {
  method: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const [kind, file, port] = process.argv.slice(2);
const recordings = JSON.parse(readFileSync(file!, 'utf8')) as Recording[];
const prepared = new Map(
  recordings.map((r) => [`${r.method} ${r.url}`, { ...r, bytes: Buffer.from(r.body, 'base64') }]),
);
/** POSTs carry unique bodies and PATCHes the same path: replay by method and path, query ignored. */
const byPath = new Map(
  recordings.map((r) => [`${r.method} ${r.url.split('?')[0]}`, prepared.get(`${r.method} ${r.url}`)!]),
);

function reply(req: IncomingMessage, res: ServerResponse) {
  const key = `${req.method} ${req.url}`;
  const r = prepared.get(key) ?? byPath.get(`${req.method} ${(req.url ?? '').split('?')[0]}`);
  if (!r) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(r.status, { ...r.headers, 'content-length': String(r.bytes.length) });
  res.end(r.bytes);
}

if (kind === 'express' || kind === 'validator') {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (kind === 'validator') {
    app.get('/health', (_req, res) => res.json({ status: 'ok' }));
    app.set('query parser', 'simple');
    app.use(express.json({ limit: '1mb' }));
    app.set('case sensitive routing', true);
    app.set('strict routing', true);
    const config = loadConfig({ ...process.env, NODE_ENV: 'production' });
    app.use(OpenApiValidator.middleware(validatorOptions(contract(), config, true)));
  }
  // One route per benchmarked path, as an application would declare them.
  for (const r of recordings) {
    const method = r.method.toLowerCase() as 'get' | 'post' | 'patch';
    app[method](r.url.split('?')[0]!, (req, res) => reply(req, res));
  }
  app.listen(Number(port), '127.0.0.1');
} else {
  createServer((req, res) => {
    req.resume();
    req.on('end', () => reply(req, res));
  }).listen(Number(port), '127.0.0.1');
}
