// A flood of distinct Content-Type values: the header is parsed once and the validator only ever
// sees the bare media type, so no header value can add a validator (each is an ajv compilation over
// the whole contract) or hold memory. Checked by the number of validators kept and the heap after
// garbage collection, never by timing.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedValidators } from '../server/http/validator/validator.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DISTINCT = 1_000;

let server: TestServer;
let acme: TestCompany;
let costCenterId: string;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const { data } = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Marketing' } });
  costCenterId = data!.id;
}, 60_000);
afterAll(async () => server.close());

async function send(method: string, path: string, contentType: string, body?: string) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': contentType },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** The requests of one round, the n-th distinct header value in each. */
const round = (n: number) =>
  Promise.all([
    send('GET', '/cost-centers/v1/cost-centers', `text/plain; x=${n}`),
    send('GET', '/cost-centers/v1/cost-centers', `application/x-probe-${n}`),
    send(
      'PATCH',
      `/cost-centers/v1/cost-centers/${costCenterId}`,
      `application/json; charset=utf-8; x=${n}`,
      '{"name":"Marketing"}',
    ),
    send('POST', '/cost-centers/v1/cost-centers', `application/x-probe-${n}`, '{"name":"x"}'),
    send('POST', '/cost-centers/v1/cost-centers', `application/json; x=${n}`, '{"nme":"x"}'),
  ]);

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('Content-Type flood', () => {
  it(`when ${DISTINCT} distinct Content-Type values arrive for each kind of request, then no validator is added and the heap does not grow`, async () => {
    // Warm up: every (operation, media type) the flood reaches is seen once.
    expect(await round(-1)).toEqual([200, 200, 200, 415, 400]);
    // Counted after a collection: the validators of servers other test files closed are gone by then.
    const heap = heapAfterGc();
    const validators = cachedValidators();

    for (let n = 0; n < DISTINCT; n++) {
      const statuses = await round(n);
      if (statuses.join() !== '200,200,200,415,400') expect(statuses, `round ${n}`).toEqual([200, 200, 200, 415, 400]);
    }

    const grown = heapAfterGc() - heap;
    expect(cachedValidators()).toBe(validators);
    expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(8_000_000);
  }, 240_000);
});
