import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCategory } from './support/factories/directory.js';
import { createRoles, createUser } from './support/factories/users.js';
import { createAccount } from './support/factories/statements.js';
import { IngestRejected, ingestFile } from '../server/areas/statements/ingest/run.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'ingest-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const banking = (accountId: number, overrides: Record<string, unknown> = {}) => ({
  transactionType: { id: 8, description: 'Compra internacional', icon: 'globe', subType: 'DEBIT' },
  status: 2,
  accountId,
  finalCardNumber: '4021',
  bearerName: 'MARIANA COSTA',
  transactionDate: '2026-11-18T14:32:05-03:00',
  brlAmount: 543.33,
  usdAmount: 100,
  usdExchangeRate: 5.4333,
  usdExchangeRateDate: '2026-11-18T00:00:00-03:00',
  totalTransactionAmount: 562.35,
  iofAmount: 19.02,
  feeServiceAmount: 0,
  mccCode: 4511,
  mccGroup: 3,
  mccDescription: 'Companhias aéreas',
  idPurchaseEvent: 99120331,
  sourceDestinationName: 'LATAM AIRLINES',
  placeEstablishment: 'MIAMI - US',
  description: 'LATAM AIRLINES GRU-MIA',
  notes: '',
  conciliation: { description: 'Not reconciled', conciled: false },
  category: { id: 'TRAVEL', description: 'Viagens' },
  costCenter: null,
  user: null,
  requesterUser: null,
  customCategory: null,
  ...overrides,
});
const card = (overrides: Record<string, unknown> = {}) => ({
  id: '01KA0000000000000000000001',
  cardId: 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e',
  finalCardNumber: '4021',
  bearerName: 'MARIANA COSTA',
  transactionDate: '2026-11-12T19:44:10-03:00',
  description: 'KALUNGA',
  merchantName: 'KALUNGA',
  mccCode: 5943,
  amount: 120.5,
  currency: 'BRL',
  brlAmount: 120.5,
  exchangeRate: null,
  iofAmount: 0,
  status: 2,
  notes: 'material',
  conciliation: { description: 'Not reconciled', conciled: false },
  category: { id: 'OFFICE', description: 'Material de escritório' },
  customCategory: null,
  costCenter: null,
  user: null,
  ...overrides,
});

let files = 0;
function file(lines: Array<unknown>): string {
  const path = join(dir, `f${(files += 1)}.jsonl`);
  writeFileSync(path, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return path;
}

async function company(): Promise<{ acme: TestCompany; account: number }> {
  const acme = await server.newCompany();
  return { acme, account: await createAccount(server.db, acme.companyId, { openingMinor: 0 }) };
}

async function rejected(companyId: string, path: string): Promise<IngestRejected> {
  const err = await ingestFile(server.db, server.index, companyId, path, server.clock.now()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(IngestRejected);
  return err as IngestRejected;
}

const count = async (companyId: string) => {
  const b = await server.db
    .selectFrom('banking_transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  const c = await server.db
    .selectFrom('credit_card_transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(b.n) + Number(c.n);
};

describe('finance ingest', () => {
  it('when every line is valid, then every transaction is stored and shown, with balance and bill updated', async () => {
    const { acme, account } = await company();
    const roles = await createRoles(server.db, acme.companyId);
    const user = await createUser(server.db, acme.companyId, {
      role_id: roles.employee.id,
      email: 'mariana@acme.com.br',
    });
    const category = await createCategory(server.db, acme.companyId);
    const path = file([
      {
        statement: 'banking',
        transaction: banking(account, {
          user: { id: user.id, email: 'MARIANA@acme.com.br' },
          customCategory: { id: category.id, name: 'x' },
        }),
      },
      '',
      { statement: 'credit-card', transaction: card() },
    ]);
    expect(await ingestFile(server.db, server.index, acme.companyId, path, server.clock.now())).toEqual({
      banking: 1,
      creditCard: 1,
      alreadyIngested: 0,
      removed: 0,
    });
    const { data } = await acme.api.GET('/statements/v1/banking');
    expect(data!.transactions[0]).toMatchObject({
      accountId: account,
      brlAmount: 543.33,
      usdAmount: 100,
      usdExchangeRate: 5.4333,
      iofAmount: 19.02,
      totalTransactionAmount: 562.35,
      transactionDate: '2026-11-18T14:32:05-03:00',
      user: { id: user.id, email: 'mariana@acme.com.br' },
      customCategory: { id: category.id, name: category.name },
    });
    const cards = await acme.api.GET('/statements/v1/credit-card');
    expect(cards.data!.transactions[0]).toMatchObject({
      id: '01KA0000000000000000000001',
      amount: 120.5,
      billDueDate: '2026-12-10',
    });
    expect((await acme.api.GET('/accounts/v1/balance')).data!.items[0]!.balance).toBe(-562.35);
    expect(
      (await acme.api.GET('/credit-cards/v1/bills/{dueDate}', { params: { path: { dueDate: '2026-12-10' } } })).data!
        .totalAmount,
    ).toBe(120.5);
  });

  it.each([
    [
      'an amount with 3 decimals',
      (a: number) => ({ statement: 'banking', transaction: banking(a, { brlAmount: 543.333 }) }),
      /brlAmount must have at most 2 decimal places/,
    ],
    [
      'a missing field',
      (a: number) => ({ statement: 'banking', transaction: { ...banking(a), description: undefined } }),
      /required property 'description'/,
    ],
    [
      'a platform-assigned id',
      (a: number) => ({ statement: 'banking', transaction: banking(a, { id: 5 }) }),
      /platform-assigned field id/,
    ],
    [
      'a total that does not add up',
      (a: number) => ({ statement: 'banking', transaction: banking(a, { totalTransactionAmount: 543.33 }) }),
      /totalTransactionAmount must equal/,
    ],
    [
      'an account of nobody',
      () => ({ statement: 'banking', transaction: banking(987_654) }),
      /accountId 987654 is not an account of the company/,
    ],
    [
      'an unknown user',
      (a: number) => ({
        statement: 'banking',
        transaction: banking(a, { user: { id: '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6', email: 'x@y.com' } }),
      }),
      /is not a user of the company/,
    ],
    ['an unknown statement', (a: number) => ({ statement: 'savings', transaction: banking(a) }), /a line must be/],
    [
      'a credit-card id that is not a ULID',
      () => ({ statement: 'credit-card', transaction: card({ id: 'abc' }) }),
      /transaction.id must match pattern/,
    ],
    ['not JSON', () => '{"statement": "banking",', /not valid JSON/],
  ])(
    'when line 2 has %s, then it is reported with its line number and nothing is stored',
    async (_name, bad, message) => {
      const { acme, account } = await company();
      const path = file([
        { statement: 'banking', transaction: banking(account) },
        bad(account),
        { statement: 'credit-card', transaction: card({ id: '01KA0000000000000000000099' }) },
      ]);
      const err = await rejected(acme.companyId, path);
      expect(err.problems.map((p) => p.line)).toEqual(err.problems.map(() => 2));
      expect(err.problems.map((p) => p.message).join('\n')).toMatch(message);
      expect(await count(acme.companyId)).toBe(0);
    },
  );

  it('when a credit-card id repeats in the file or already exists with other content, then those lines are reported', async () => {
    const { acme } = await company();
    const first = file([{ statement: 'credit-card', transaction: card({ id: '01KA0000000000000000000042' }) }]);
    await ingestFile(server.db, server.index, acme.companyId, first, server.clock.now());
    const again = file([
      { statement: 'credit-card', transaction: card({ id: '01KA0000000000000000000043' }) },
      { statement: 'credit-card', transaction: card({ id: '01KA0000000000000000000043' }) },
      { statement: 'credit-card', transaction: card({ id: '01KA0000000000000000000042', notes: 'changed' }) },
    ]);
    const err = await rejected(acme.companyId, again);
    expect(err.problems).toEqual([
      { line: 2, message: expect.stringMatching(/already exists/) },
      { line: 3, message: expect.stringMatching(/already exists/) },
    ]);
    expect(await count(acme.companyId)).toBe(1);
  });

  it('when the same file is ingested twice, then the second adds nothing and says every line was already ingested', async () => {
    const { acme, account } = await company();
    const twin = { statement: 'banking', transaction: banking(account) };
    const path = file([
      twin,
      twin,
      { statement: 'credit-card', transaction: card({ id: '01KA0000000000000000000077' }) },
    ]);
    expect(await ingestFile(server.db, server.index, acme.companyId, path, server.clock.now())).toEqual({
      banking: 2,
      creditCard: 1,
      alreadyIngested: 0,
      removed: 0,
    });
    expect(await ingestFile(server.db, server.index, acme.companyId, path, server.clock.now())).toEqual({
      banking: 0,
      creditCard: 0,
      alreadyIngested: 3,
      removed: 0,
    });
    expect(await count(acme.companyId)).toBe(3);
  });

  it('when the file grew (one more identical line, a new line), then only the new lines are added', async () => {
    const { acme, account } = await company();
    const twin = { statement: 'banking', transaction: banking(account) };
    await ingestFile(server.db, server.index, acme.companyId, file([twin]), server.clock.now());
    const grown = file([twin, { statement: 'banking', transaction: banking(account, { description: 'other' }) }, twin]);
    expect(await ingestFile(server.db, server.index, acme.companyId, grown, server.clock.now())).toEqual({
      banking: 2,
      creditCard: 0,
      alreadyIngested: 1,
      removed: 0,
    });
    expect(await count(acme.companyId)).toBe(3);
  });

  it('when lines carry an externalId, then a line is recognised by it even with other content, and a repeated externalId is reported', async () => {
    const { acme, account } = await company();
    await ingestFile(
      server.db,
      server.index,
      acme.companyId,
      file([{ statement: 'banking', externalId: 'bank-1', transaction: banking(account) }]),
      server.clock.now(),
    );
    const edited = file([
      { statement: 'banking', externalId: 'bank-1', transaction: banking(account, { notes: 'edited' }) },
    ]);
    expect(await ingestFile(server.db, server.index, acme.companyId, edited, server.clock.now())).toEqual({
      banking: 0,
      creditCard: 0,
      alreadyIngested: 1,
      removed: 0,
    });
    const repeated = file([
      { statement: 'banking', externalId: 'bank-2', transaction: banking(account) },
      { statement: 'banking', externalId: 'bank-2', transaction: banking(account) },
    ]);
    expect((await rejected(acme.companyId, repeated)).problems).toEqual([
      { line: 2, message: expect.stringMatching(/externalId/) },
    ]);
    expect(await count(acme.companyId)).toBe(1);
  });
});
