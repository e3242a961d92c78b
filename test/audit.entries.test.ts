// The audit log: what is recorded (webhook endpoint changes, card reveals, export downloads), with
// actor, address, request id and the service clock's time; filters, paging, the company's own only,
// the scope, retention and append-only storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { fundedCompany, hotelRequest, issue, reauthenticate } from './support/factories/vcn.js';
import { purgeAuditEntries } from '../server/areas/audit/public.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

const entries = async (company: TestCompany, query: Record<string, unknown> = {}) => {
  const { data, response, error } = await company.api.GET('/audit/v1/entries', { params: { query } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!;
};

async function endpointLifecycle(company: TestCompany) {
  const created = await company.api.POST('/webhooks/v1/endpoints', {
    body: { url: 'https://erp.acme.example/hooks', enabledEvents: ['*'] },
  });
  expect(created.response.status).toBe(201);
  const endpointId = created.data!.id;
  const path = { params: { path: { endpointId } } };
  const steps = [created.response];
  server.clock.advance(1000);
  steps.push(
    (await company.api.PATCH('/webhooks/v1/endpoints/{endpointId}', { ...path, body: { description: 'ERP' } }))
      .response,
  );
  server.clock.advance(1000);
  steps.push((await company.api.POST('/webhooks/v1/endpoints/{endpointId}/rotate-secret', path)).response);
  server.clock.advance(1000);
  steps.push((await company.api.DELETE('/webhooks/v1/endpoints/{endpointId}', path)).response);
  return { endpointId, requestIds: steps.map((r) => r.headers.get('X-Request-Id')) };
}

describe('listAuditEntries', () => {
  it('when a webhook endpoint is created, changed, rotated and deleted, then four entries, newest first, with actor, address, request id and time', async () => {
    const acme = await server.newCompany();
    const started = server.clock.now().getTime();
    const { endpointId, requestIds } = await endpointLifecycle(acme);
    const { items } = await entries(acme);
    expect(items.map((e) => e.action)).toEqual([
      'webhook_endpoint.deleted',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.updated',
      'webhook_endpoint.created',
    ]);
    expect(items.map((e) => e.requestId)).toEqual([...requestIds].reverse());
    for (const entry of items) {
      expect(entry).toMatchObject({ actor: acme.clientId, target: endpointId, ip: '127.0.0.1' });
    }
    // Time from the service clock (the test's manual clock), one second apart.
    expect(items.map((e) => Date.parse(e.createdAt) - started)).toEqual([3000, 2000, 1000, 0]);
    expect(items[2]?.details).toEqual({ changed: ['description'] });
  });

  it('when another company lists its entries, then it sees none of the first one', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await endpointLifecycle(acme);
    expect((await entries(globex)).items).toEqual([]);
    expect((await entries(globex, { actor: acme.clientId })).items).toEqual([]);
  });

  it('when a change is refused, then nothing is recorded', async () => {
    const acme = await server.newCompany();
    const missing = await acme.api.DELETE('/webhooks/v1/endpoints/{endpointId}', {
      params: { path: { endpointId: 'we_01JD3R9A7B5C3D1E2F4G6H8J0K' } },
    });
    expect(missing.response.status).toBe(404);
    expect((await entries(acme)).items).toEqual([]);
  });

  it('when a card is revealed and an export downloaded, then both are recorded', async () => {
    const acme = await fundedCompany(server);
    const card = await issue(acme, hotelRequest());
    const revealed = await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(revealed.response.status, JSON.stringify(revealed.error)).toBe(200);
    const csv = await acme.api.GET('/statements/v1/exports/banking', {
      params: { query: { format: 'csv', startDate: '2026-09-01', endDate: '2026-09-30' } },
      parseAs: 'text',
    });
    expect(csv.response.status, String(csv.error)).toBe(200);
    const { items } = await entries(acme, { actions: ['vcn.revealed', 'export.downloaded'] });
    expect(items.map((e) => [e.action, e.target, e.requestId])).toEqual([
      ['export.downloaded', '/statements/v1/exports/banking', csv.response.headers.get('X-Request-Id')],
      ['vcn.revealed', card.vcnId, revealed.response.headers.get('X-Request-Id')],
    ]);
    expect(items[0]?.details).toEqual({ format: 'csv', startDate: '2026-09-01', endDate: '2026-09-30' });
    // The card data never reaches the log: no value is the CVV (3 digits, which the client's IP may
    // well contain) or holds the PAN.
    const leaves = (value: unknown): string[] =>
      value !== null && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [String(value)];
    const values = leaves(items);
    expect(values).not.toContain(String(revealed.data?.cvv ?? 'no-cvv'));
    expect(values.filter((v) => v.includes(String(revealed.data?.pan ?? 'no-pan')))).toEqual([]);
  });

  it('when filtered by action, actor and a time range, then only matching entries; pages follow with nextPageStartKey', async () => {
    const acme = await server.newCompany();
    const other = await server.newCompany();
    const before = server.clock.now().toISOString();
    server.clock.advance(1000);
    await endpointLifecycle(acme);
    await endpointLifecycle(acme);
    server.clock.advance(1000);
    const cut = server.clock.now().toISOString();
    server.clock.advance(1000);
    await endpointLifecycle(acme);

    const created = await entries(acme, { actions: ['webhook_endpoint.created'], limit: 2 });
    expect(created.items).toHaveLength(2);
    const rest = await entries(acme, {
      actions: ['webhook_endpoint.created'],
      limit: 2,
      nextPageStartKey: created.nextPageStartKey!,
    });
    expect(rest.items).toHaveLength(1);
    expect(rest.nextPageStartKey).toBeUndefined();
    expect([...created.items, ...rest.items].every((e) => e.action === 'webhook_endpoint.created')).toBe(true);

    const early = await entries(acme, { createdAfter: before, createdBefore: cut });
    expect(early.items).toHaveLength(8);
    const late = await entries(acme, { createdAfter: cut });
    expect(late.items).toHaveLength(4);
    expect((await entries(acme, { actor: other.clientId })).items).toEqual([]);
    expect((await entries(acme, { actor: acme.clientId })).items).toHaveLength(12);

    const forged = await acme.api.GET('/audit/v1/entries', {
      params: { query: { limit: 2, nextPageStartKey: created.nextPageStartKey! } },
    });
    expect(forged.response.status).toBe(400);
  });

  it('when the time range is empty or a filter is not one of the contract, then 400 with the error body', async () => {
    const acme = await server.newCompany();
    const reversed = await acme.api.GET('/audit/v1/entries', {
      params: { query: { createdAfter: '2026-11-21T00:00:00Z', createdBefore: '2026-11-20T00:00:00Z' } },
    });
    expect(reversed.response.status).toBe(400);
    expect(reversed.error).toMatchObject({ reason: 'invalid_value', param: 'createdBefore' });
    const unknown = await fetch(`${server.baseUrl}/audit/v1/entries?actions=card.stolen`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ requestId: expect.any(String), details: expect.any(Array) });
  });

  it('when the token lacks audit:read, then 403', async () => {
    const narrow = await server.newCompany({ scopes: ['webhooks:write'] });
    const { response } = await narrow.api.GET('/audit/v1/entries');
    expect(response.status).toBe(403);
  });

  it('when entries are older than the retention, then they are not listed, and the purge deletes them', async () => {
    let acme = await server.newCompany();
    await endpointLifecycle(acme);
    const days = server.config.auditRetentionDays;
    expect(days).toBeGreaterThanOrEqual(400);
    server.clock.advance((days - 1) * 86_400_000);
    acme = await reauthenticate(server, acme);
    expect((await entries(acme)).items).toHaveLength(4);
    server.clock.advance(2 * 86_400_000);
    acme = await reauthenticate(server, acme);
    expect((await entries(acme)).items).toEqual([]);
    const stored = () =>
      server.db.selectFrom('audit_entries').select('id').where('company_id', '=', acme.companyId).execute();
    expect(await stored()).toHaveLength(4);
    await purgeAuditEntries(server.db, server.clock.now(), days);
    expect(await stored()).toEqual([]);
  });

  it('when a stored entry is changed, then the database refuses: the log is append-only', async () => {
    const acme = await server.newCompany();
    await endpointLifecycle(acme);
    await expect(
      server.db
        .updateTable('audit_entries')
        .set({ actor: 'someone-else' })
        .where('company_id', '=', acme.companyId)
        .execute(),
    ).rejects.toThrow(/append-only/);
  });
});
