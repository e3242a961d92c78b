// Conditional GETs (RFC 9110 §13.1.2): every GET of a list or an item answers with an ETag and
// `Cache-Control: private, no-cache`; `If-None-Match` with the current tag is a 304 without a body,
// and a 200 again once something the answer shows changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCostCenter } from './support/factories/directory.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

let server: TestServer;
let acme: TestCompany;
let ids: number[];
beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  ids = await createBankingTransactions(server.db, acme.companyId, account, [{}, {}, {}]);
});
afterAll(async () => server.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${acme.token}`, ...headers } });

/** The tag of a 200, then the same GET with it: 304, no body, the same tag. */
async function revalidates(path: string) {
  const first = await get(path);
  expect(first.status).toBe(200);
  expect(first.headers.get('cache-control')).toBe('private, no-cache');
  const tag = first.headers.get('etag')!;
  expect(tag).toMatch(/^(W\/)?".+"$/);
  const again = await get(path, { 'If-None-Match': tag });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
  expect(again.headers.get('etag')).toBe(tag);
  expect(again.headers.get('cache-control')).toBe('private, no-cache');
  return tag;
}

const patchNotes = (id: number, notes: string) =>
  acme.api.PATCH('/statements/v1/banking/{transactionId}', {
    params: { path: { transactionId: id } },
    body: { notes },
  });

describe('conditional GETs', () => {
  it('when the banking page is asked again with its tag, then 304 with no body; after a PATCH, 200 with another tag', async () => {
    const tag = await revalidates('/statements/v1/banking?limit=2');
    expect((await patchNotes(ids[0]!, 'Nova nota')).response.status).toBe(204);
    const changed = await get('/statements/v1/banking?limit=2', { 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect((await changed.json()) as unknown).toHaveProperty('transactions');
  });

  it('when the query differs, then the tag differs', async () => {
    const a = (await get('/statements/v1/banking?limit=2')).headers.get('etag');
    const b = (await get('/statements/v1/banking?limit=3')).headers.get('etag');
    expect(a).not.toBe(b);
    const globex = await server.newCompany();
    const other = await fetch(`${server.baseUrl}/statements/v1/banking?limit=2`, {
      headers: { Authorization: `Bearer ${globex.token}`, 'If-None-Match': a! },
    });
    expect(other.status).toBe(200);
  });

  it('when the change feed, the card list and an export are asked again with their tags, then 304', async () => {
    await revalidates('/statements/v1/banking/sync');
    await revalidates('/statements/v1/credit-card');
    await revalidates('/statements/v1/exports/banking?format=csv');
  });

  it('when an item, a directory list and the events are asked again with their tags, then 304; a rename makes the item 200 again', async () => {
    const costCenter = await createCostCenter(server.db, acme.companyId);
    const path = `/cost-centers/v1/cost-centers/${costCenter.id}`;
    const tag = await revalidates(path);
    await revalidates('/cost-centers/v1/cost-centers');
    await revalidates('/events/v1/events');
    await revalidates('/users/v1/users');
    await revalidates('/webhooks/v1/endpoints');
    const renamed = await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: costCenter.id } },
      body: { name: 'Outro nome' },
    });
    expect(renamed.response.status).toBe(200);
    expect((await get(path, { 'If-None-Match': tag })).status).toBe(200);
  });

  it('when a GET is refused, then the error carries no ETag and stays no-store', async () => {
    const refused = await get('/statements/v1/banking/sync?cursor=altered', { 'If-None-Match': '"x"' });
    expect(refused.status).toBe(410);
    expect(refused.headers.get('etag')).toBeNull();
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('when If-None-Match holds another tag, or *, then 200 and 304', async () => {
    expect((await get('/statements/v1/banking', { 'If-None-Match': '"nope"' })).status).toBe(200);
    expect((await get('/statements/v1/banking', { 'If-None-Match': '*' })).status).toBe(304);
  });
});
