// `npm run bench:content-type`: what distinct Content-Type values cost the server. Sends the same
// requests with one plain Content-Type and with a new value each time (`text/plain; x=<n>` on the
// cost-center list, `application/json; charset=utf-8; x=<n>` on a rename), interleaved, and prints
// the median latency of each as a ratio, and the growth of the process's memory. Before the header
// was reduced to its bare media type, each new value compiled two validators over the whole contract.
// Usage: npm run bench:content-type -- [--requests 300]
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp } from '../server/app.js';
import { testConfig } from '../server/config.js';
import { openStore } from '../server/db/store.js';
import { ALL_SCOPES, createClient, createCompany } from '../server/areas/auth/store.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import { createHttpServer, listen } from '../server/http/server.js';
import { createSimulatedIssuer } from '../server/sandbox/issuer.js';
import { systemClock } from '../server/lib/clock.js';
import { contract } from '../server/contract/index.js';

const argv = process.argv.slice(2);
const REQUESTS = Number(argv[argv.indexOf('--requests') + 1] || 300);

const { db } = await openStore(':memory:');
const config = testConfig({ validateResponses: false });
const server = await listen(
  createHttpServer(
    createApp({
      db,
      index: contract(),
      clock: systemClock,
      config,
      logger: createLogger('silent'),
      issuer: createSimulatedIssuer(),
    }),
  ),
  0,
  '127.0.0.1',
);
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const companyId = await createCompany(db, systemClock, { name: 'Bench Ltda' });
const { clientId, clientSecret } = await createClient(db, systemClock, { companyId, scopes: ALL_SCOPES });
const token = (
  (await (
    await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    })
  ).json()) as { access_token: string }
).access_token;
const created = (await (
  await fetch(`${base}/cost-centers/v1/cost-centers`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{"name":"Marketing"}',
  })
).json()) as { id: string };

async function timed(method: string, path: string, contentType: string, body?: string): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
    body,
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${method} ${path} with ${contentType}: ${res.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cases = [
  {
    name: 'GET cost centers',
    method: 'GET',
    path: '/cost-centers/v1/cost-centers',
    plain: 'text/plain',
    odd: (n: number) => `text/plain; x=${n}`,
  },
  {
    name: 'PATCH cost center',
    method: 'PATCH',
    path: `/cost-centers/v1/cost-centers/${created.id}`,
    plain: 'application/json',
    odd: (n: number) => `application/json; charset=utf-8; x=${n}`,
    body: '{"name":"Marketing"}',
  },
];

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Heap in use after garbage collection, and resident memory, in MB. */
const memory = () => {
  gc();
  gc();
  return { heap: process.memoryUsage().heapUsed / 1e6, rss: process.memoryUsage().rss / 1e6 };
};

/** One phase: per case, `REQUESTS` plain requests interleaved with `REQUESTS` of `other`'s Content-Type. */
async function phase(other: (c: (typeof cases)[number], n: number) => string) {
  const before = memory();
  const medians: Array<[number, number]> = [];
  for (const c of cases) {
    const plain: number[] = [];
    const odd: number[] = [];
    for (let n = 0; n < REQUESTS; n++) {
      plain.push(await timed(c.method, c.path, c.plain, c.body));
      odd.push(await timed(c.method, c.path, other(c, n), c.body));
    }
    medians.push([median(plain), median(odd)]);
  }
  const after = memory();
  return { medians, heap: after.heap - before.heap, rss: after.rss - before.rss };
}

for (const c of cases) for (let i = 0; i < 50; i++) await timed(c.method, c.path, c.plain, c.body);
const control = await phase((c) => c.plain);
const flood = await phase((c, n) => c.odd(n));
const rows = cases.map((c, i) => {
  const [plain, odd] = flood.medians[i]!;
  return `| ${c.name} | ${plain.toFixed(2)} | ${odd.toFixed(2)} | ${(odd / plain).toFixed(2)} |`;
});
const mb = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} MB`;
process.stdout.write(
  `| request | plain ms (median) | distinct Content-Type ms (median) | ratio |\n|---|---|---|---|\n${rows.join('\n')}\n\n` +
    `${REQUESTS} distinct values per request, interleaved with plain ones (client and server in one process).\n` +
    `memory over the distinct values: heap after GC ${mb(flood.heap)}, RSS ${mb(flood.rss)}; ` +
    `over as many plain requests: heap after GC ${mb(control.heap)}, RSS ${mb(control.rss)}\n`,
);
server.close();
server.closeAllConnections?.();
await db.destroy();
