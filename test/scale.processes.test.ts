// The rules across processes: two real `finance serve` processes on one database (SQLite file, or
// PostgreSQL under TEST_DATABASE=postgres) receive competing requests at once, and only the allowed
// outcomes happen. Then a mixed read/write load split over both answers no 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../server/db/database.js';
import { freshDatabase } from './support/database.js';
import { startProcesses, sharedCompany, type ServerProcess, type SharedCompany } from './support/processes.js';
import { createPeople, createUser } from './support/factories/users.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { customRequest, fund, hotelRequest } from './support/factories/vcn.js';
import { countActiveAdministrators } from '../server/areas/users/store/users.js';

let dir: string;
let db: Db;
let servers: ServerProcess[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scale-processes-'));
  ({ db, servers } = await startProcesses(await freshDatabase(dir), [1, 1]));
}, 90_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((s) => s.stop()));
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** `n` requests at once, alternating between the two processes; their statuses, sorted. */
async function race(
  company: SharedCompany,
  n: number,
  call: (api: SharedCompany['apis'][number], i: number) => Promise<{ response: Response }>,
) {
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) => call(company.apis[i % company.apis.length]!, i)),
  );
  return results.map((r) => r.response.status).sort();
}
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('two server processes on one database', () => {
  it('when both create a supplier of the same name at once, then exactly one 201 and the rest 409', async () => {
    const acme = await sharedCompany(db, servers);
    const statuses = await race(acme, 10, (api, i) =>
      api.POST('/suppliers/v1/suppliers', { body: { name: i % 2 ? 'Papelaria Central' : ' papelaria central ' } }),
    );
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
  });

  it('when both invite the same address at once, then exactly one pending invite', async () => {
    const acme = await sharedCompany(db, servers);
    const { roles } = await createPeople(db, acme.companyId);
    const statuses = await race(acme, 8, (api, i) =>
      api.POST('/users/v1/invites', {
        body: { roleId: roles.employee.id, email: i % 2 ? 'JOAO@acme.com.br' : 'joao@acme.com.br' },
      }),
    );
    expect(statuses).toEqual([201, ...Array(7).fill(409)]);
    const pending = await db
      .selectFrom('invites')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .where('status', '=', 'PENDING')
      .execute();
    expect(pending).toHaveLength(1);
  });

  it('when the last two administrators are demoted at once, one per process, then one is refused (409) and one administrator remains', async () => {
    const acme = await sharedCompany(db, servers);
    const people = await createPeople(db, acme.companyId);
    const second = await createUser(db, acme.companyId, { role_id: people.roles.responsible.id });
    const targets = [people.admin.id, second.id];
    const statuses = await race(acme, 2, (api, i) =>
      api.PATCH('/users/v1/users/{userId}', {
        params: { path: { userId: targets[i]! } },
        body: { roleId: people.roles.employee.id },
      }),
    );
    expect(statuses).toEqual([200, 409]);
    expect(await countActiveAdministrators(db, acme.companyId)).toBe(1);
  });

  it('when one idempotency key is sent to both at once, then exactly one card is issued', async () => {
    const acme = await sharedCompany(db, servers);
    await fund(db, acme.companyId);
    const body = hotelRequest();
    const statuses = await race(acme, 8, (api) => api.POST('/credit-cards/v1/vcns', { body }));
    expect(count(statuses, 201)).toBe(1);
    expect(count(statuses, 409)).toBe(7);
    const cards = await db
      .selectFrom('vcns')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .where('status', '<>', 'PENDING')
      .execute();
    expect(cards).toHaveLength(1);
  });

  it('when two top-ups with one expected value reach both at once, then one applies and the other is refused', async () => {
    const acme = await sharedCompany(db, servers);
    await fund(db, acme.companyId);
    const created = await acme.apis[0]!.POST('/credit-cards/v1/vcns', {
      body: customRequest({ limit: { value: 1000, currency: 'BRL' } }),
    });
    expect(created.response.status).toBe(201);
    const vcnId = created.data!.vcnId;
    const statuses = await race(acme, 6, (api, i) =>
      api.PATCH('/credit-cards/v1/vcns/{vcnId}', {
        params: { path: { vcnId } },
        body: { limit: { value: 1100 + i * 10, expectedValue: 1000 } },
      }),
    );
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('when 25 attachments are declared on one transaction at once, then exactly 20 are accepted; one upload URL used by both at once succeeds once', async () => {
    const acme = await sharedCompany(db, servers);
    const bankingId = await createBankingTransaction(db, acme.companyId, await createAccount(db, acme.companyId));
    const declared = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        acme.apis[i % 2]!.POST('/attachments/v1', {
          body: {
            transactionId: String(bankingId),
            statement: 'banking',
            name: `nota-${i}.pdf`,
            type: 'application/pdf',
          },
        }),
      ),
    );
    const statuses = declared.map((d) => d.response.status);
    expect(count(statuses, 201)).toBe(20);
    expect(count(statuses, 409)).toBe(5);

    const url = new URL(declared.find((d) => d.response.status === 201)!.data!.uploadUrl);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const uploads = await Promise.all(
      servers.map((s) =>
        fetch(`${s.baseUrl}${url.pathname}${url.search}`, {
          method: 'PUT',
          body: new Uint8Array(pdf),
          headers: { 'Content-Type': 'application/pdf' },
        }),
      ),
    );
    expect(uploads.map((u) => u.status).sort()).toEqual([200, 409]);
  });

  it('when two categories are deleted at once, each moving its transactions to the other, then one succeeds and nothing points at a deleted category', async () => {
    const acme = await sharedCompany(db, servers);
    const a = (await acme.apis[0]!.POST('/categories/v1/categories', { body: { name: 'Viagens' } })).data!;
    const b = (await acme.apis[0]!.POST('/categories/v1/categories', { body: { name: 'Hospedagem' } })).data!;
    const pairs = [
      [a.id, b.id],
      [b.id, a.id],
    ] as const;
    const statuses = await race(acme, 2, (api, i) =>
      api.DELETE('/categories/v1/categories', { params: { query: { ids: [pairs[i]![0]], moveTo: pairs[i]![1] } } }),
    );
    expect(statuses.filter((s) => s >= 200 && s < 300)).toHaveLength(1);
    expect(statuses.every((s) => s < 500)).toBe(true);
    const left = await db
      .selectFrom('categories')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .where('id', 'in', [a.id, b.id])
      .execute();
    expect(left).toHaveLength(1);
  });
});
