// An ingest run's created events are recorded after its rows are published, a chunk per short
// transaction advancing the run's cursor: a process that stops between chunks leaves the rest to the
// next ingest, which records each remaining event once, in order, before its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { bankingRow, createAccount, creditCardRow } from './support/factories/statements.js';
import { publishIngest } from '../server/areas/statements/store/ingest-runs.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

class Stopped extends Error {}

/** The company's events in the order they were recorded: type and the object's id. */
async function eventsOf(companyId: string) {
  const rows = await server.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ type: r.type, id: (JSON.parse(r.data) as { object: { id?: unknown } }).object.id }));
}

async function idsOf(companyId: string) {
  const banking = await server.db
    .selectFrom('banking_transactions')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  const cards = await server.db
    .selectFrom('credit_card_transactions')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return { banking: banking.map((r) => r.id), cards: cards.map((r) => r.id) };
}

describe('ingest events', () => {
  // Chunks are per statement: 2,500 banking rows take three (the last of 500), 1,200 cards two.
  for (const [stopAfter, recorded] of [
    [1, 1_000],
    [4, 3_500],
  ] as const) {
    it(`when the process stops after the move and ${stopAfter} event chunk(s), then the next ingest records the rest once each, in order, before its own`, async () => {
      const acme = await server.newCompany();
      const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
      const banking = Array.from({ length: 2_500 }, () => bankingRow(acme.companyId, account, { status: 2 }));
      const cards = Array.from({ length: 1_200 }, () => creditCardRow(acme.companyId, { status: 2 }));
      const summary = { file: 'first.jsonl', banking: banking.length, creditCard: cards.length };
      const err = await publishIngest(
        server.db,
        acme.companyId,
        banking,
        cards,
        server.clock.now(),
        undefined,
        undefined,
        {
          summary,
          onChunk: (chunks) => {
            if (chunks === stopAfter) throw new Stopped();
          },
        },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Stopped);

      // The rows are published (listed) with only the stopped chunks' events recorded.
      const listed = await acme.api.GET('/statements/v1/banking', { params: { query: { limit: 1 } } });
      expect(listed.data?.transactions).toHaveLength(1);
      const ids = await idsOf(acme.companyId);
      const created = [
        ...ids.banking.map((id) => ({ type: 'banking_transaction.created', id })),
        ...ids.cards.map((id) => ({ type: 'credit_card_transaction.created', id })),
      ];
      expect(await eventsOf(acme.companyId)).toEqual(created.slice(0, recorded));

      // The next ingest finishes the first run's events, then records its own.
      const later = bankingRow(acme.companyId, account, { status: 2 });
      await publishIngest(server.db, acme.companyId, [later], [], server.clock.now(), undefined, undefined, {
        summary: { file: 'second.jsonl', banking: 1, creditCard: 0 },
      });
      const after = await idsOf(acme.companyId);
      const newId = after.banking.find((id) => !ids.banking.includes(id));
      expect(await eventsOf(acme.companyId)).toEqual([
        ...created,
        { type: 'statement.ingested', id: undefined },
        { type: 'banking_transaction.created', id: newId },
        { type: 'statement.ingested', id: undefined },
      ]);
      const runs = await server.db
        .selectFrom('ingest_runs')
        .select('events_seq')
        .where('company_id', '=', acme.companyId)
        .execute();
      expect(runs.map((r) => r.events_seq)).toEqual([null, null]);
    });
  }
});
