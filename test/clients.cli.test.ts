// The operator's `finance client` commands on the store the API manages: a client the command line
// makes is listed by the API, and what it changes is in the company's audit log with the actor `cli`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { freshDatabase } from './support/database.js';
import { financeInProcess } from './support/cli.js';

let server: TestServer;
let location: string;
beforeAll(async () => {
  location = await freshDatabase();
  server = await startTestServer({ dbPath: location, deliveries: 'manual' });
});
afterAll(async () => server.close());

async function finance(...args: string[]) {
  const result = await financeInProcess([...args, '--db', location, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('finance client', () => {
  it('when the command line creates, rotates and revokes a client, then the API lists it and the log names `cli`', async () => {
    const acme = await server.newCompany();
    const made = await finance(
      'client',
      'create',
      '--company',
      acme.companyId,
      '--scopes',
      'statements:read',
      '--name',
      'Nightly ERP',
    );
    const clientId = String(made.clientId);
    const listed = await acme.api.GET('/clients/v1/clients/{clientId}', { params: { path: { clientId } } });
    expect(listed.data).toMatchObject({ name: 'Nightly ERP', createdBy: 'cli', scopes: ['statements:read'] });

    await finance('client', 'rotate', '--client', clientId, '--grace', '1h');
    await finance('client', 'revoke', '--client', clientId);
    const { data } = await acme.api.GET('/audit/v1/entries', { params: { query: { actor: 'cli' } } });
    expect(data?.items.map((e) => [e.action, e.target, e.ip, e.requestId])).toEqual([
      ['api_client.revoked', clientId, null, null],
      ['api_client.secret_rotated', clientId, null, null],
      ['api_client.created', clientId, null, null],
    ]);
    expect(data?.items[1]?.details).toEqual({ graceEndsAt: expect.any(String) });
    const after = await acme.api.GET('/clients/v1/clients/{clientId}', { params: { path: { clientId } } });
    expect(after.data?.status).toBe('revoked');
  });
});
