// The second peer for `npm run bench`: the same work on the best-known Node stack — Fastify 5, each
// benchmarked operation a route whose schemas (path, query, body, and the 200 answer) are the
// contract's, validated by Fastify's ajv and serialized by its fast-json-stringify; the bearer token
// looked up per request with the store's own query; the operation's own handler (the same SQL on the
// same database file, the same JSON). What it lacks is what the service adds around the work (chains,
// request ids, traces, security headers, access lines, metrics, ETags). The bench checks its answers
// equal the service's before measuring. With `duties` it also does what a production service does per
// request (fastify-duties.ts: access line, request id, traceparent, helmet, ETag, a histogram).
// Usage: node --import tsx scripts/bench-http/fastify-peer.ts <db file> <port> <recordings.json> [duties]
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Json } from '../../server/contract/bundle.js';
import { ajvFormats } from '../../server/contract/formats.js';
import { dutiesOptions, registerDuties } from './fastify-duties.js';
import { openPeer } from './peer.js';

const { port, recordings, index, operationOf, work } = await openPeer();
const spec = index.validatorSpec();
const DUTIES = process.argv[5] === 'duties';

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
  ...(DUTIES ? dutiesOptions() : { logger: false }),
  ajv: { customOptions: { strict: false, formats: ajvFormats() as never } },
});
app.addSchema({ $id: CONTRACT, components: shared(spec.components) });
if (DUTIES) await registerDuties(app);
app.get('/health', async () => ({ status: 'ok' }));

const paths = spec.paths as Record<string, Record<string, Json>>;
/** One route per benchmarked operation, as an application declares them (two requests may share one). */
const declared = new Set<string>();
for (const r of recordings) {
  const { operation, route } = operationOf(r);
  if (declared.has(`${r.method} ${route}`)) continue;
  declared.add(`${r.method} ${route}`);
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
  app.route({
    method: r.method as 'GET' | 'PATCH' | 'POST',
    url: route,
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
      const input = { params: req.params, query: req.query, body: req.body };
      const result = await work(operation, req.headers.authorization, input, req, reply.raw);
      return reply.code(result.status).send(result.body);
    },
  });
}
await app.listen({ port, host: '127.0.0.1' });
