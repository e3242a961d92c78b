import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { createCategory, createCostCenter, expectError } from './support/factories/directory.js';
import { paginators } from '../client/paginate.js';

let server: TestServer;
let acme: TestCompany;
let globex: TestCompany;
const ids: Record<string, number> = {};
const cardIds: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  globex = await server.newCompany();
  const viagens = await createCostCenter(server.db, acme.companyId, { name: 'Viagens Nacionais' });
  const marketing = await createCategory(server.db, acme.companyId, { name: 'Marketing Digital' });
  const account = await createAccount(server.db, acme.companyId);
  const [lunch, taxi, ads, supplier, pending] = await createBankingTransactions(server.db, acme.companyId, account, [
    { notes: 'Almoço com cliente no Café Figueira', description: 'PIX ENVIADO', status: 2 },
    { notes: '', description: 'TAXI AEROPORTO', cost_center_id: viagens.id, status: 2 },
    { notes: 'Campanha de lançamento', custom_category_id: marketing.id, status: 2 },
    { notes: '', source_destination_name: 'Cafeteria São Jorge LTDA', status: 2 },
    { notes: 'café da manhã evento', status: 3 },
  ]);
  Object.assign(ids, { lunch, taxi, ads, supplier, pending });
  await createBankingTransactions(server.db, globex.companyId, await createAccount(server.db, globex.companyId), [
    { notes: 'Almoço com cliente no Café Figueira', status: 2 },
  ]);
  const [dinner, hotel] = await createCreditCardTransactions(server.db, acme.companyId, [
    { notes: 'Jantar de fechamento – Café Paris', merchant_name: 'BISTRO PARIS' },
    { notes: '', merchant_name: 'HOTEL ÂNCORA', description: 'HOTEL ANCORA', cost_center_id: viagens.id },
  ]);
  Object.assign(cardIds, { dinner, hotel });
  await createCreditCardTransactions(server.db, globex.companyId, [{ notes: 'Jantar de fechamento – Café Paris' }]);
});
afterAll(async () => server.close());

const bankingIds = async (query: Record<string, unknown>, company = acme) => {
  const out: number[] = [];
  for await (const t of paginators(company.api).bankingTransactions(query as never)) out.push(t.id);
  return out.sort((a, b) => a - b);
};
const cardRecordIds = async (query: Record<string, unknown>, company = acme) => {
  const out: string[] = [];
  for await (const t of paginators(company.api).creditCardTransactions(query as never)) out.push(t.id);
  return out.sort();
};

/** One record an hour from 2026-01-01 UTC: the `i`-th one's time. */
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();

/** Rows with unknown signatures (every bit set, as a write that does not sign leaves them): they pass every word. */
const signaturesUnknown = (
  table: 'banking_transactions' | 'credit_card_transactions',
  rows: readonly (number | string)[],
) => server.db.updateTable(table).set({ search_sig_lo: -1, search_sig_hi: -1 }).where('id', 'in', rows).execute();

describe('listBankingTransactions q', () => {
  it('when q holds a word of the notes, then the transactions holding it are found, without case or accents, and never another company’s', async () => {
    expect(await bankingIds({ q: 'figueira' })).toEqual([ids.lunch]);
    expect(await bankingIds({ q: 'ALMOCO' })).toEqual([ids.lunch]);
    expect(await bankingIds({ q: 'almoço cliente' })).toEqual([ids.lunch]);
    expect(await bankingIds({ q: 'almoço inexistente' })).toEqual([]);
    expect(await bankingIds({ q: 'cafe' })).toEqual([ids.lunch!, ids.supplier!, ids.pending!].sort((a, b) => a - b));
    expect(await bankingIds({ q: 'Café', status: [3] })).toEqual([ids.pending]);
    expect((await bankingIds({ q: 'figueira' }, globex)).length).toBe(1);
    expect(await bankingIds({ q: 'figueira' }, globex)).not.toContain(ids.lunch);
  });

  it('when q names a company category or cost center, then the transactions classified with it are found', async () => {
    expect(await bankingIds({ q: 'viagens' })).toEqual([ids.taxi]);
    expect(await bankingIds({ q: 'marketing' })).toEqual([ids.ads]);
    expect(await bankingIds({ q: 'taxi nacionais' })).toEqual([ids.taxi]);
  });

  it('when the notes change, then the next search finds the new words and not the old ones', async () => {
    const path = { transactionId: ids.taxi! };
    const patched = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path },
      body: { notes: 'Reembolso Guarulhos' },
    });
    expect(patched.response.status).toBe(204);
    expect(await bankingIds({ q: 'guarulhos' })).toEqual([ids.taxi]);
    await acme.api.PATCH('/statements/v1/banking/{transactionId}', { params: { path }, body: { notes: '' } });
    expect(await bankingIds({ q: 'guarulhos' })).toEqual([]);
  });

  it('when a word is held by thousands of rows, then the page walks the date order and still shows the newest matches first', async () => {
    const busy = await server.newCompany();
    const account = await createAccount(server.db, busy.companyId);
    const rows = Array.from({ length: 2_100 }, (_, i) => ({
      notes: i % 2 === 0 ? 'Reembolso de despesa' : 'Reembolso de viagem',
      transaction_date: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    }));
    const made = await createBankingTransactions(server.db, busy.companyId, account, rows);
    const { data } = await busy.api.GET('/statements/v1/banking', { params: { query: { q: 'reembolso', limit: 5 } } });
    expect(data?.transactions.map((t) => t.id)).toEqual([...made].reverse().slice(0, 5));
    const despesa = made.filter((_, i) => i % 2 === 0).sort((a, b) => a - b);
    expect(await bankingIds({ q: 'reembolso despesa' }, busy)).toEqual(despesa);
  });

  it('when a common word is walked, then upper case, accents and plain ASCII rows match alike, and others do not', async () => {
    const busy = await server.newCompany();
    const account = await createAccount(server.db, busy.companyId);
    const kinds = ['REEMBOLSO CAFE', 'Reembolso Café da manhã', 'reembolso cafeteria', 'reembolso caf_e 100%'];
    const rows = Array.from({ length: 2_800 }, (_, i) => ({
      notes: kinds[i % 4]!,
      transaction_date: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    }));
    const made = await createBankingTransactions(server.db, busy.companyId, account, rows);
    const cafe = made.filter((_, i) => i % 4 !== 3);
    const { data } = await busy.api.GET('/statements/v1/banking', {
      params: { query: { q: 'café REEMBOLSO', limit: 4 } },
    });
    expect(data?.transactions.map((t) => t.id)).toEqual([...cafe].reverse().slice(0, 4));
    expect(await bankingIds({ q: 'Café reembolso' }, busy)).toEqual(cafe.sort((a, b) => a - b));
  });

  it('when a searched column changes by a write that does not sign it, then walked and fetched searches still find the row', async () => {
    const busy = await server.newCompany();
    const account = await createAccount(server.db, busy.companyId);
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
    const [other] = await createBankingTransactions(server.db, busy.companyId, account, [
      { notes: 'outra coisa', transaction_date: at(0) },
    ]);
    const common = await createBankingTransactions(
      server.db,
      busy.companyId,
      account,
      Array.from({ length: 2_100 }, (_, i) => ({ notes: 'quiosque', transaction_date: at(i + 1) })),
    );
    // An operator's fix in SQL: the description changes, the signature column is not touched.
    await server.db
      .updateTable('banking_transactions')
      .set({ description: 'ESTORNO QUIOSQUE' })
      .where('id', '=', other!)
      .execute();
    // "quiosque" is common: the pages walk the signatures, and the changed row's no longer holds it.
    expect(await bankingIds({ q: 'quiosque' }, busy)).toEqual([other!, ...common].sort((a, b) => a - b));
    // "estorno" is rare: its matches are fetched from the trigram index.
    expect(await bankingIds({ q: 'estorno' }, busy)).toEqual([other]);
  });

  it('when the newest rows pass a word’s signature but do not hold it, then the page still reaches the older rows that do', async () => {
    const busy = await server.newCompany();
    const account = await createAccount(server.db, busy.companyId);
    const older = await createBankingTransactions(
      server.db,
      busy.companyId,
      account,
      Array.from({ length: 30 }, (_, i) => ({ notes: 'Passeio na lagoa', transaction_date: at(i) })),
    );
    const newer = await createBankingTransactions(
      server.db,
      busy.companyId,
      account,
      Array.from({ length: 2_100 }, (_, i) => ({ notes: 'outra despesa', transaction_date: at(100 + i) })),
    );
    // SQLite's probe judges "lagoa" common, and a page of 5 walks them all where walks are
    // unbounded, or its bounded walk (200 entries a row) holds none of it and it is read again.
    await signaturesUnknown('banking_transactions', newer);
    const { data } = await busy.api.GET('/statements/v1/banking', { params: { query: { q: 'lagoa', limit: 5 } } });
    expect(data?.transactions.map((t) => t.id)).toEqual([...older].reverse().slice(0, 5));
    expect(await bankingIds({ q: 'lagoa', limit: 5 }, busy)).toEqual(older);
  });

  it('when pages of 1 are followed with q, then each match comes once, and the cursor is refused with another q', async () => {
    const first = await acme.api.GET('/statements/v1/banking', { params: { query: { q: 'cafe', limit: 1 } } });
    expect(first.data?.transactions).toHaveLength(1);
    const other = await acme.api.GET('/statements/v1/banking', {
      params: { query: { q: 'almoco', limit: 1, nextPageStartKey: first.data?.nextPageStartKey } },
    });
    expectError(other, 400);
  });

  it('when q has no word of 3 characters or is longer than 200, then 400 naming q', async () => {
    for (const q of ['ab', 'a b', ' ', 'x'.repeat(201)]) {
      const res = await fetch(`${server.baseUrl}/statements/v1/banking?${new URLSearchParams({ q })}`, {
        headers: { Authorization: `Bearer ${acme.token}` },
      });
      expect(res.status, q).toBe(400);
      expect((await res.json()).param).toBe('q');
    }
    expect((await acme.api.GET('/statements/v1/banking', { params: { query: { q: 'x'.repeat(200) } } })).data).toEqual({
      transactions: [],
    });
  });
});

describe('listCreditCardTransactions q', () => {
  it('when q holds a word of the notes or the merchant, then the records are found, and never another company’s', async () => {
    expect(await cardRecordIds({ q: 'fechamento' })).toEqual([cardIds.dinner]);
    expect(await cardRecordIds({ q: 'cafe paris' })).toEqual([cardIds.dinner]);
    expect(await cardRecordIds({ q: 'ancora' })).toEqual([cardIds.hotel]);
    expect(await cardRecordIds({ q: 'nacionais' })).toEqual([cardIds.hotel]);
    expect(await cardRecordIds({ q: 'fechamento', types: ['INSTALLMENT_PURCHASE'] })).toEqual([]);
    const theirs = await cardRecordIds({ q: 'fechamento' }, globex);
    expect(theirs).toHaveLength(1);
    expect(theirs).not.toContain(cardIds.dinner);
  });

  it('when the newest records pass a word’s signature but do not hold it, then the page still reaches the older records that do', async () => {
    const busy = await server.newCompany();
    const older = await createCreditCardTransactions(
      server.db,
      busy.companyId,
      Array.from({ length: 12 }, (_, i) => ({ notes: 'Passeio na lagoa', transaction_date: at(i) })),
    );
    const newer = await createCreditCardTransactions(
      server.db,
      busy.companyId,
      Array.from({ length: 2_100 }, (_, i) => ({ notes: 'outra despesa', transaction_date: at(100 + i) })),
    );
    await signaturesUnknown('credit_card_transactions', newer);
    expect(await cardRecordIds({ q: 'lagoa', limit: 5 }, busy)).toEqual([...older].sort());
  });

  it('when a record’s notes change, then the next search finds them', async () => {
    await acme.api.PATCH('/statements/v1/credit-card/{transactionId}', {
      params: { path: { transactionId: cardIds.hotel! } },
      body: { notes: 'Diária extra Florianópolis' },
    });
    expect(await cardRecordIds({ q: 'florianopolis' })).toEqual([cardIds.hotel]);
    expectError(await acme.api.GET('/statements/v1/credit-card', { params: { query: { q: 'xy' } } }), 400);
  });
});

describe('getBankingSummary q', () => {
  it('when q is given, then the summary counts and sums what the list shows for the same q', async () => {
    const { data } = await acme.api.GET('/statements/v1/banking/summary', {
      params: { query: { q: 'cafe', groupBy: 'status' } },
    });
    expect(data?.total.count).toBe(3);
    expect(data?.groups.reduce((n, g) => n + g.count, 0)).toBe(3);
    let out = 0;
    for await (const t of paginators(acme.api).bankingTransactions({ q: 'cafe' } as never))
      out += Math.round(t.totalTransactionAmount * 100);
    expect(Math.round((data?.total.out ?? 0) * 100)).toBe(out);
  });
});

const exported = async (statement: 'banking' | 'credit-card', q: string, company = acme) => {
  const res = await fetch(
    `${server.baseUrl}/statements/v1/exports/${statement}?${new URLSearchParams({ format: 'csv', q })}`,
    {
      headers: { Authorization: `Bearer ${company.token}` },
    },
  );
  expect(res.status).toBe(200);
  return (await res.text()).trim().split('\n').slice(1);
};

describe('downloadBankingExport q', () => {
  it('when q is given, then the export holds the transactions the list finds, and only those', async () => {
    const lines = await exported('banking', 'figueira');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(String(ids.lunch));
    expect(await exported('banking', 'inexistente')).toEqual([]);
  });
});

describe('downloadCreditCardExport q', () => {
  it('when q is given, then the export holds the records the list finds, never another company’s', async () => {
    const lines = await exported('credit-card', 'fechamento');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(cardIds.dinner);
    const theirs = await exported('credit-card', 'fechamento', globex);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).not.toContain(cardIds.dinner);
  });
});
