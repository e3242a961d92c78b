// The second peer for `npm run bench`: the same work on the best-known Node stack — Fastify 5, each
// benchmarked operation a route whose schemas (path, query, body, and the 200 answer) are the
// contract's, validated by Fastify's ajv and serialized by its fast-json-stringify; the bearer token
// looked up per request with the store's own query; the operation's own handler (the same SQL on the
// same database file, the same JSON). What it lacks is what the service adds around the work (chains,
// request ids, traces, security headers, access lines, metrics, ETags). The bench checks its answers
// equal the service's before measuring.
// Usage: node --import tsx scripts/bench-http/fastify-peer.ts <db file> <port> <recordings.json>
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { contract } from '../../server/contract/index.js';
import type { Json } from '../../server/contract/bundle.js';
import { ajvFormats } from '../../server/contract/formats.js';
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
const spec = index.validatorSpec();

type AnyHandler = (input: unknown, ctx: HandlerContext) => Promise<{ status: number; body?: unknown }>;

/** The contract's components as one shared schema; local references point into it. */
const CONTRACT = 'contract';
const shared = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(shared);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = `${CONTRACT}${value}`;
    else if (key !== 'example' && key !== 'discriminator' && !key.startsWith('x-')) out[key] = shared(value);
  }
  return out;
};

const app = Fastify({
  logger: false,
  ajv: { customOptions: { strict: false, formats: ajvFormats() as never } },
});
app.addSchema({ $id: CONTRACT, components: shared(spec.components) });
app.get('/health', async () => ({ status: 'ok' }));

const paths = spec.paths as Record<string, Record<string, Json>>;
for (const r of recordings) {
  const path = r.url.split('?')[0]!;
  const found = index.match(r.method, path);
  if (found.kind !== 'operation') throw new Error(`${r.method} ${path} is not an operation of the contract`);
  const { operation } = found;
  const raw = paths[operation.path]![operation.method.toLowerCase()]!;
  const parameters = [...((paths[operation.path]!.parameters ?? []) as Json[]), ...((raw.parameters ?? []) as Json[])]
    .map((p) => index.resolve(p))
    .filter((p) => p.in === 'path' || p.in === 'query');
  const group = (where: string) => {
    const list = parameters.filter((p) => p.in === where);
    if (list.length === 0) return undefined;
    return {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, shared(p.schema)])),
      required: list.filter((p) => p.required).map((p) => p.name),
    };
  };
  const ok = index.resolve((raw.responses as Json)['200'] ?? {}) as Json;
  const answer = ((ok.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  const body = index.resolve(raw.requestBody) as Json | undefined;
  const bodySchema = ((body?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  const handler = (operations as unknown as Record<string, AnyHandler>)[operation.operationId]!;
  app.route({
    method: r.method as 'GET' | 'PATCH' | 'POST',
    url: operation.path.replace(/\{([^}]+)\}/g, ':$1'),
    // Only the parts the operation has (Fastify warns of a part given as undefined).
    schema: Object.fromEntries(
      Object.entries({
        params: group('path'),
        querystring: group('query'),
        body: bodySchema ? shared(bodySchema) : undefined,
        response: answer ? { 200: shared(answer) } : undefined,
      }).filter(([, part]) => part !== undefined),
    ),
    exposeHeadRoute: false,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const found = await lookupToken(db, systemClock, token);
      if (!found.grant) return reply.code(401).send({ error: 'Unauthorized' });
      const { clockOffsetMs, ...grant } = found.grant;
      const ctx = {
        db,
        clock: systemClock,
        config,
        issuer: unavailableIssuer(),
        auth: { ...grant, companyClock: offsetClock(systemClock, clockOffsetMs) },
        requestId: '',
        req,
        res: reply.raw,
        logFields: () => undefined,
      } as unknown as HandlerContext;
      const result = await handler({ params: req.params, query: req.query, body: req.body }, ctx);
      return reply.code(result.status).send(result.body);
    },
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
// Exit (and write a --cpu-prof profile) when the bench stops it.
process.once('SIGTERM', () => process.exit(0));
