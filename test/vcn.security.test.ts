// VCN security: scopes, authentication, the feature switch, and card data never at rest in clear
// nor in logs.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../server/http/pipeline/logger.js';
import { startTestServer, type TestServer } from './support/server.js';
import { customRequest, expectVcnError, fund, fundedCompany, hotelRequest, issue } from './support/factories/vcn.js';
import { sql } from 'kysely';
import type { Db } from '../server/db/database.js';
import { freshDatabase, onPostgres } from './support/database.js';

const ANY_ID = '01JD3R7M5Q2W8E4T6Y1V9K0PZX';

/** Everything the store holds: the SQLite files' bytes, or every PostgreSQL row as text. */
async function storedBytes(dir: string, db: Db): Promise<string> {
  if (!onPostgres)
    return readdirSync(dir)
      .map((file) => readFileSync(join(dir, file)).toString('latin1'))
      .join('\n');
  const tables = await sql<{
    table_name: string;
  }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
  const rows = await Promise.all(
    tables.rows.map(({ table_name }) =>
      sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db),
    ),
  );
  return rows.flatMap((r) => r.rows.map((x) => x.row)).join('\n');
}

describe('VCN scopes and authentication', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('when the token lacks vcn:write, then createVcn and updateVcn are 403 forbidden', async () => {
    const reader = await server.newCompany({ scopes: ['vcn:read', 'vcn:reveal'] });
    await fund(server.db, reader.companyId);
    expectVcnError(await reader.api.POST('/credit-cards/v1/vcns', { body: customRequest() }), 403, 'forbidden');
    const patch = await reader.api.PATCH('/credit-cards/v1/vcns/{vcnId}', {
      params: { path: { vcnId: ANY_ID } },
      body: { limit: { value: 1 } },
    });
    expectVcnError(patch, 403, 'forbidden');
  });

  it('when the token lacks vcn:reveal, then revealVcn and redirectVcnCard are 403, even for its own card', async () => {
    const writer = await fundedCompany(server, { scopes: ['vcn:write', 'vcn:read'] });
    const vcn = await issue(writer, customRequest());
    const path = { vcnId: vcn.vcnId };
    expectVcnError(
      await writer.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path } }),
      403,
      'forbidden',
    );
    expectVcnError(await writer.api.GET('/credit-cards/v1/vcns/{vcnId}/card', { params: { path } }), 403, 'forbidden');
  });

  it('when the token lacks vcn:read, then listVcnTransactions is 403', async () => {
    const writer = await fundedCompany(server, { scopes: ['vcn:write'] });
    const vcn = await issue(writer, customRequest());
    expectVcnError(
      await writer.api.GET('/credit-cards/v1/vcns/{vcnId}/transactions', { params: { path: { vcnId: vcn.vcnId } } }),
      403,
      'forbidden',
    );
  });

  it('when no token is sent, then every VCN operation is 401 unauthorized with WWW-Authenticate', async () => {
    const path = { vcnId: ANY_ID };
    const replies = [
      await server.anonymous.POST('/credit-cards/v1/vcns', { body: customRequest() }),
      await server.anonymous.PATCH('/credit-cards/v1/vcns/{vcnId}', {
        params: { path },
        body: { endDate: '2027-01-01' },
      }),
      await server.anonymous.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path } }),
      await server.anonymous.GET('/credit-cards/v1/vcns/{vcnId}/card', { params: { path } }),
      await server.anonymous.GET('/credit-cards/v1/vcns/{vcnId}/transactions', { params: { path } }),
    ];
    for (const reply of replies) {
      expectVcnError(reply, 401, 'unauthorized');
      expect(reply.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });
});

describe('VCN_ENABLED', () => {
  it('when virtual cards are switched off, then every VCN route answers 404', async () => {
    const server = await startTestServer({ config: { vcnEnabled: false } });
    try {
      const acme = await fundedCompany(server);
      const path = { vcnId: ANY_ID };
      const replies = [
        await acme.api.POST('/credit-cards/v1/vcns', { body: customRequest() }),
        await acme.api.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path }, body: { endDate: '2027-01-01' } }),
        await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path } }),
        await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/card', { params: { path } }),
        await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/transactions', { params: { path } }),
      ];
      expect(replies.map((r) => r.response.status)).toEqual([404, 404, 404, 404, 404]);
      expect(await server.db.selectFrom('vcns').select('id').execute()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('card data at rest and in logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'finance-vcn-'));
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer({ dbPath: await freshDatabase(dir), logger: createLogger('trace', sink) });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when cards are issued, revealed and topped up, then no PAN or CVV appears in the database files or the logs', async () => {
    const acme = await fundedCompany(server);
    const cards = [await issue(acme, customRequest()), await issue(acme, hotelRequest())];
    for (const vcn of cards) {
      const path = { vcnId: vcn.vcnId };
      expect((await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path } })).data?.pan).toBe(
        vcn.card.pan,
      );
      await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/card', { params: { path } });
    }
    await acme.api.PATCH('/credit-cards/v1/vcns/{vcnId}', {
      params: { path: { vcnId: cards[0]!.vcnId } },
      body: { limit: { value: 9000 } },
    });

    const raw = await storedBytes(dir, server.db);
    expect(raw.length).toBeGreaterThan(0);
    const logs = lines.join('');
    expect(logs).toContain(cards[0]!.vcnId); // the requests were logged
    for (const vcn of cards) {
      expect(raw).toContain(vcn.vcnId); // the rows are in the file
      expect(raw).not.toContain(vcn.card.pan);
      expect(logs).not.toContain(vcn.card.pan);
      expect(logs).not.toMatch(new RegExp(`"cvv":"${vcn.card.cvv}"`));
    }
    const columns = await server.db.selectFrom('vcns').selectAll().executeTakeFirstOrThrow();
    expect(Object.keys(columns).filter((c) => /cvv/i.test(c))).toEqual([]);
  });
});
