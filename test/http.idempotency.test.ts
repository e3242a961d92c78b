// Idempotency-Key on writes: replay of the first response, 422 for another request with the key,
// 409 while the first runs, nothing stored for refused requests or server errors, kept across restarts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { fundedCompany, hotelRequest, issuerWaiting, reauthenticate } from './support/factories/vcn.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const send = (base: string, token: string, method: string, path: string, key: string | undefined, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const post = (key: string | undefined, body: unknown, tenant = acme) =>
  send(server.baseUrl, tenant.token, 'POST', '/cost-centers/v1/cost-centers', key, body);
const count = async (tenant = acme) =>
  (await server.db.selectFrom('cost_centers').select('id').where('company_id', '=', tenant.companyId).execute()).length;

describe('Idempotency-Key', () => {
  it('when a create is repeated with the same key, then the same 201 body and Location are replayed and nothing is created twice', async () => {
    const key = randomUUID();
    const first = await post(key, { name: 'Marketing' });
    const firstBody = await first.json();
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    const again = await post(key, { name: 'Marketing' });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(await again.json()).toEqual(firstBody);
    expect(await count()).toBe(1);
  });

  it('when the same key comes with another body, path or method, then 422 and nothing is done', async () => {
    const key = randomUUID();
    const first = await post(key, { name: 'Vendas' });
    const { id } = (await first.json()) as { id: string };
    const before = await count();

    const otherBody = await post(key, { name: 'Compras' });
    expect(otherBody.status).toBe(422);
    expect(await otherBody.json()).toMatchObject({ code: 422, details: [expect.stringContaining('Idempotency-Key')] });
    const otherMethod = await send(server.baseUrl, acme.token, 'PATCH', `/cost-centers/v1/cost-centers/${id}`, key, {
      name: 'Vendas',
    });
    expect(otherMethod.status).toBe(422);
    expect(await count()).toBe(before);
    expect((await acme.api.GET('/cost-centers/v1/cost-centers/{id}', { params: { path: { id } } })).data?.name).toBe(
      'Vendas',
    );
  });

  it('when the first answer was a refusal by the handler (409), then a retry with the key replays the 409', async () => {
    await post(undefined, { name: 'Jurídico' });
    const key = randomUUID();
    const first = await post(key, { name: 'Jurídico' });
    expect(first.status).toBe(409);
    const again = await post(key, { name: 'Jurídico' });
    expect(again.status).toBe(409);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('when the request fails validation (400), then nothing is stored and a corrected retry with the key runs', async () => {
    const key = randomUUID();
    expect((await post(key, { name: '' })).status).toBe(400);
    // A different body with the same key is not 422: the refused request was not kept.
    const fixed = await post(key, { name: 'Financeiro' });
    expect(fixed.status).toBe(201);
  });

  it('when two clients of different companies use the same key, then each gets its own answer', async () => {
    const globex = await server.newCompany();
    const key = randomUUID();
    const a = await post(key, { name: 'Compartilhado' });
    const b = await post(key, { name: 'Compartilhado' }, globex);
    expect(b.status).toBe(201);
    expect(b.headers.get('Idempotent-Replayed')).toBeNull();
    expect(((await b.json()) as { id: string }).id).not.toBe(((await a.json()) as { id: string }).id);
  });

  it('when the key is longer than 255 characters or not printable, then 400', async () => {
    expect((await post('k'.repeat(256), { name: 'Longo' })).status).toBe(400);
    expect((await post('tab\there', { name: 'Tab' })).status).toBe(400);
    expect((await post('k'.repeat(255), { name: 'Exato' })).status).toBe(201);
  });

  it('when 24 hours have passed, then the key is forgotten and a new request with it runs again', async () => {
    const key = randomUUID();
    const tenant = await server.newCompany();
    expect((await post(key, { name: 'Antigo' }, tenant)).status).toBe(201);
    server.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await post(key, { name: 'Novo' }, await reauthenticate(server, tenant));
    expect(later.status).toBe(201);
    expect(later.headers.get('Idempotent-Replayed')).toBeNull();
  });
});

describe('Idempotency-Key while the first request runs', () => {
  it('when two requests with one key overlap, then one 201 and one 409, and one card is issued', async () => {
    const funded = await fundedCompany(server);
    const key = randomUUID();
    const body = hotelRequest();
    const release = server.issuer.hold();
    const first = send(server.baseUrl, funded.token, 'POST', '/credit-cards/v1/vcns', key, body);
    await issuerWaiting(server);
    const second = await send(server.baseUrl, funded.token, 'POST', '/credit-cards/v1/vcns', key, body);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: 'conflict' });
    release();
    const answered = await first;
    expect(answered.status).toBe(201);
    const replay = await send(server.baseUrl, funded.token, 'POST', '/credit-cards/v1/vcns', key, body);
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(await answered.json());
  });

  it('when the first request ends in 503, then nothing is stored and the retry with the key issues the card', async () => {
    const funded = await fundedCompany(server);
    const key = randomUUID();
    const body = hotelRequest();
    server.issuer.failNext(1);
    expect((await send(server.baseUrl, funded.token, 'POST', '/credit-cards/v1/vcns', key, body)).status).toBe(503);
    const retry = await send(server.baseUrl, funded.token, 'POST', '/credit-cards/v1/vcns', key, body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
  });
});

describe('Idempotency-Key across restarts', () => {
  it('when the server restarts on the same database, then a retry replays the same body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-'));
    const dbPath = join(dir, 'finance.db');
    try {
      const before = await startTestServer({ dbPath });
      const tenant = await before.newCompany();
      const key = randomUUID();
      const first = await send(before.baseUrl, tenant.token, 'POST', '/cost-centers/v1/cost-centers', key, {
        name: 'Persistente',
      });
      const firstBody = await first.json();
      const secrets = before.config.secrets;
      await before.close();

      const after = await startTestServer({ dbPath, config: { secrets } });
      try {
        const again = await send(after.baseUrl, tenant.token, 'POST', '/cost-centers/v1/cost-centers', key, {
          name: 'Persistente',
        });
        expect(again.status).toBe(201);
        expect(again.headers.get('Idempotent-Replayed')).toBe('true');
        expect(await again.json()).toEqual(firstBody);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
