// Name uniqueness under concurrency across servers: two instances of the app on one database
// file (two connections, as two processes would have) creating the same name at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type Api, type TestServer } from './support/server.js';
import { freshDatabase } from './support/database.js';

let dir: string;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'directory-races-'));
  const dbPath = await freshDatabase(dir);
  first = await startTestServer({ dbPath });
  second = await startTestServer({ dbPath, clock: first.clock });
});
afterAll(async () => {
  await first.close();
  await second.close();
  rmSync(dir, { recursive: true, force: true });
});

const creates: Array<[string, (api: Api, name: string) => Promise<{ response: Response }>]> = [
  ['cost centers', (api, name) => api.POST('/cost-centers/v1/cost-centers', { body: { name } })],
  ['suppliers', (api, name) => api.POST('/suppliers/v1/suppliers', { body: { name } })],
  ['categories', (api, name) => api.POST('/categories/v1/categories', { body: { name } })],
];

describe('directory names across servers', () => {
  it.each(creates)(
    'when two servers on one database create %s of the same name at once, then one 201 and the rest 409',
    async (_kind, create) => {
      const acme = await first.newCompany();
      const other = second.apiWithToken(acme.token);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          create(i % 2 === 0 ? acme.api : other, i % 3 === 0 ? 'Logística' : ' LOGÍSTICA '),
        ),
      );
      const statuses = results.map((r) => r.response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    },
  );
});
