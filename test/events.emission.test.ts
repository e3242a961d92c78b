// Each state change writes exactly one event of its type, in its transaction; a refused change writes none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createPeople, createRole, createUser } from './support/factories/users.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { acceptInvite } from '../server/areas/users/invites-service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

async function typesOf(tenant: TestCompany): Promise<string[]> {
  const { data } = await tenant.api.GET('/events/v1/events', { params: { query: { limit: 100 } } });
  return data!.items.map((e) => e.type).reverse();
}

describe('directory events', () => {
  it('when cost centers, suppliers and categories are created, renamed and deleted, then one event each, in order', async () => {
    const acme = await server.newCompany();
    const cc = (await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Marketing' } })).data!;
    await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: cc.id } },
      body: { name: 'Mkt' },
    });
    await acme.api.DELETE('/cost-centers/v1/cost-centers/{id}', { params: { path: { id: cc.id } } });
    const sup = (await acme.api.POST('/suppliers/v1/suppliers', { body: { name: 'Kalunga' } })).data!;
    expect(
      (
        await acme.api.PUT('/suppliers/v1/suppliers/{id}', {
          params: { path: { id: sup.id } },
          body: { name: 'Kalunga SA' },
        })
      ).response.status,
    ).toBe(200);
    await acme.api.DELETE('/suppliers/v1/suppliers/{id}', { params: { path: { id: sup.id } } });
    const cat = (await acme.api.POST('/categories/v1/categories', { body: { name: 'Viagens' } })).data!;
    await acme.api.PATCH('/categories/v1/categories/{id}', {
      params: { path: { id: cat.id } },
      body: { name: 'Viagem' },
    });
    await acme.api.DELETE('/categories/v1/categories', { params: { query: { ids: [cat.id] } } });

    expect(await typesOf(acme)).toEqual([
      'cost_center.created',
      'cost_center.updated',
      'cost_center.deleted',
      'supplier.created',
      'supplier.updated',
      'supplier.deleted',
      'category.created',
      'category.updated',
      'category.deleted',
    ]);
    const { data } = await acme.api.GET('/events/v1/events', { params: { query: { types: ['cost_center.updated'] } } });
    expect(data?.items[0]?.data).toEqual({
      object: { id: cc.id, companyId: acme.companyId, name: 'Mkt' },
      previousAttributes: { name: 'Marketing' },
    });
  });

  it('when a create collides with a taken name or a delete targets nothing, then no event', async () => {
    const acme = await server.newCompany();
    await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Vendas' } });
    expect((await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'vendas' } })).response.status).toBe(
      409,
    );
    expect(
      (await acme.api.DELETE('/suppliers/v1/suppliers/{id}', { params: { path: { id: 999999 } } })).response.status,
    ).toBe(404);
    expect(
      (await acme.api.DELETE('/categories/v1/categories', { params: { query: { ids: [999999] } } })).response.status,
    ).toBe(404);
    expect(await typesOf(acme)).toEqual(['cost_center.created']);
  });
});

describe('people events', () => {
  it('when a user is updated and deleted and an invite sent and accepted, then one event each', async () => {
    const acme = await server.newCompany();
    const people = await createPeople(server.db, acme.companyId);
    const employee = await createUser(server.db, acme.companyId, {
      role_id: people.roles.employee.id,
      name: 'Beatriz Lima',
      email: 'beatriz.lima@acme.com.br',
    });
    await acme.api.PATCH('/users/v1/users/{userId}', {
      params: { path: { userId: employee.id } },
      body: { name: 'Beatriz L.' },
    });
    await acme.api.DELETE('/users/v1/users/{userId}', { params: { path: { userId: employee.id } } });
    const role = await createRole(server.db, acme.companyId, { profile: 'EMPLOYEE', name: 'Analista' });
    expect(
      (await acme.api.POST('/users/v1/invites', { body: { email: 'novo@acme.com.br', roleId: role.id } })).response
        .status,
    ).toBe(201);
    await acceptInvite(server.db, server.clock, acme.companyId, { email: 'novo@acme.com.br' });
    // Refused: the owner cannot be deleted.
    expect(
      (await acme.api.DELETE('/users/v1/users/{userId}', { params: { path: { userId: people.owner.id } } })).response
        .status,
    ).toBe(409);

    expect(await typesOf(acme)).toEqual(['user.updated', 'user.deleted', 'invite.created', 'invite.accepted']);
    const { data } = await acme.api.GET('/events/v1/events', { params: { query: { types: ['user.updated'] } } });
    expect(data?.items[0]?.data.previousAttributes).toEqual({ name: 'Beatriz Lima' });
  });
});

describe('attachment events', () => {
  it('when an upload completes, then attachment.created; a declared but never uploaded attachment has none', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const id = await createBankingTransaction(server.db, acme.companyId, account);
    const declared = await acme.api.POST('/attachments/v1', {
      body: { statement: 'banking', transactionId: String(id), name: 'nf.pdf', type: 'application/pdf' },
    });
    await acme.api.POST('/attachments/v1', {
      body: { statement: 'banking', transactionId: String(id), name: 'outra.pdf', type: 'application/pdf' },
    });
    const upload = await fetch(declared.data!.uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      body: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    expect(upload.status).toBe(200);
    const { data } = await acme.api.GET('/events/v1/events');
    expect(data?.items.map((e) => [e.type, e.data.object.id])).toEqual([['attachment.created', declared.data!.id]]);
  });
});

describe('who made a change', () => {
  it('when a change is made through the API, then its event names the request and the API client; a change outside a request, neither', async () => {
    const acme = await server.newCompany();
    const created = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Auditoria' } });
    const account = await createAccount(server.db, acme.companyId);
    const id = await createBankingTransaction(server.db, acme.companyId, account);
    const patched = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: id } },
      body: { notes: 'conferido', costCenterId: created.data!.id },
    });
    // A rename changes what statement rows show: its statement.updates_available is the renamer's too.
    await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: created.data!.id } },
      body: { name: 'Auditoria interna' },
    });
    const role = await createRole(server.db, acme.companyId, { profile: 'EMPLOYEE', name: 'Analista' });
    await acme.api.POST('/users/v1/invites', { body: { email: 'fora.de.request@acme.com.br', roleId: role.id } });
    await acceptInvite(server.db, server.clock, acme.companyId, { email: 'fora.de.request@acme.com.br' });
    const { data } = await acme.api.GET('/events/v1/events', { params: { query: { limit: 100 } } });
    const byType = new Map(data!.items.map((e) => [e.type, e]));
    expect(byType.get('cost_center.created')).toMatchObject({
      clientId: acme.clientId,
      requestId: created.response.headers.get('X-Request-Id'),
    });
    expect(byType.get('banking_transaction.updated')).toMatchObject({
      clientId: acme.clientId,
      requestId: patched.response.headers.get('X-Request-Id'),
    });
    expect(byType.get('statement.updates_available')?.clientId).toBe(acme.clientId);
    expect(byType.get('invite.created')?.clientId).toBe(acme.clientId);
    expect(byType.get('invite.accepted')).toMatchObject({ clientId: null, requestId: null });
    expect(data!.items.every((e) => e.clientId === acme.clientId || e.clientId === null)).toBe(true);
  });
});
