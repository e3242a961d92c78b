// downloadBankingExport / downloadCreditCardExport as OFX 1.0.2: parsed with ofx-js, one STMTTRN per
// row of the list with the same filters, in its order, with the list's amounts signed.
import { parseSync } from 'ofx-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinanceClient } from '../client/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { collect, financeOf, text } from './support/exports.js';

let server: TestServer;
let acme: TestCompany;
let finance: FinanceClient;
let account: number;
const CARD = 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e';

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  finance = financeOf(server, acme);
  account = await createAccount(server.db, acme.companyId, { openingMinor: 1_234_567 });
  const other = await createAccount(server.db, acme.companyId, { openingMinor: 100 });
  const base = Date.parse('2026-10-01T03:00:00.000Z');
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      transaction_date: new Date(base + i * 2_700_000).toISOString(),
      brl_amount_minor: 1000 + i * 7,
      total_amount_minor: 1000 + i * 7 + (i % 3 === 0 ? 38 : 0),
      sub_type: i % 4 === 0 ? 'CREDIT' : 'DEBIT',
      source_destination_name: i % 5 === 0 ? 'CURTO' : `FORNECEDOR COM UM NOME MUITO LONGO ${i} LTDA`,
      notes: i % 2 ? `Nota <${i}> & "aspas"` : '',
      status: ((i % 3) + 1) as 1 | 2 | 3,
    }));
  await createBankingTransactions(server.db, acme.companyId, account, rows(640));
  await createBankingTransactions(server.db, acme.companyId, other, rows(30));
  await createCreditCardTransactions(
    server.db,
    acme.companyId,
    Array.from({ length: 130 }, (_, i) => ({
      transaction_date: new Date(base + i * 3_600_000).toISOString(),
      card_id: i % 3 ? CARD : '5e0d9b1a-7c3f-4e2d-8a6b-1f0e9d8c7b6a',
      notes: i % 2 ? 'Reembolso & ajuste' : '',
    })),
  );
}, 120_000);
afterAll(async () => server.close());

/** The STMTTRN list of a parsed statement, always an array. */
const transactionsOf = (list: { STMTTRN?: unknown }) =>
  (Array.isArray(list.STMTTRN) ? list.STMTTRN : list.STMTTRN ? [list.STMTTRN] : []) as Array<Record<string, string>>;

/** `2026-10-01T00:00:00-03:00` as OFX writes it: `20261001000000[-3]`. */
const ofxTime = (iso: string) => `${iso.slice(0, 19).replace(/[-T:]/g, '')}[${Number(iso.slice(19, 22))}]`;

describe('downloadBankingExport as OFX', () => {
  it('when filtered, then an OFX 1.0.2 statement with one STMTTRN per listed row, amounts signed', async () => {
    const query = {
      accountId: account,
      startDate: '2026-10-02',
      endDate: '2026-10-15',
      status: [2, 3] as Array<1 | 2 | 3>,
    };
    const items = await collect(finance.paginate.bankingTransactions({ ...query, limit: 50 }));
    expect(items.length).toBeGreaterThan(100);
    const ofx = parseSync(await text(await finance.exports.banking({ ...query, format: 'ofx' })));
    expect(ofx.header).toMatchObject({ OFXHEADER: '100', DATA: 'OFXSGML', VERSION: '102' });
    const statement = ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.CURDEF).toBe('BRL');
    const { data: balance } = await finance.GET('/accounts/v1/balance', { params: { query: { accountId: account } } });
    const [held] = balance!.items;
    expect(statement.BANKACCTFROM).toEqual({
      BANKID: held!.bankCode,
      BRANCHID: held!.branch,
      ACCTID: held!.number,
      ACCTTYPE: 'CHECKING',
    });
    expect(statement.BANKTRANLIST.DTSTART).toBe('20261002000000[-3]');
    expect(statement.BANKTRANLIST.DTEND).toBe('20261015235959[-3]');
    expect(statement.LEDGERBAL.BALAMT).toBe(held!.balance.toFixed(2));
    const transactions = transactionsOf(statement.BANKTRANLIST);
    expect(transactions).toHaveLength(items.length);
    for (const [i, item] of items.entries()) {
      const debit = item.transactionType.subType === 'DEBIT';
      const name = item.sourceDestinationName ?? item.description;
      expect(transactions[i]).toEqual({
        TRNTYPE: item.transactionType.subType,
        DTPOSTED: ofxTime(item.transactionDate),
        TRNAMT: (debit ? -item.totalTransactionAmount : item.totalTransactionAmount).toFixed(2),
        FITID: String(item.id),
        NAME: name.slice(0, 32).trim(),
        MEMO: [item.description, item.notes].filter(Boolean).join(' - '),
      });
    }
  });

  it('when nothing is filtered, then every row, the company-wide account and the span of the statement', async () => {
    const items = await collect(finance.paginate.bankingTransactions({ limit: 50 }));
    const ofx = parseSync(await text(await finance.exports.banking({ format: 'ofx' })));
    const statement = ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.BANKACCTFROM.ACCTID).toBe('ALL');
    expect(transactionsOf(statement.BANKTRANLIST).map((t) => t.FITID)).toEqual(items.map((t) => String(t.id)));
    expect(statement.BANKTRANLIST.DTSTART).toBe(ofxTime(items.at(-1)!.transactionDate));
    expect(statement.BANKTRANLIST.DTEND).toBe(ofxTime(items[0]!.transactionDate));
  });

  it('when nothing matches, then a well-formed statement without transactions', async () => {
    const ofx = parseSync(await text(await finance.exports.banking({ format: 'ofx', amountEq: 0.01 })));
    expect(transactionsOf(ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS.BANKTRANLIST)).toEqual([]);
  });
});

describe('downloadCreditCardExport as OFX', () => {
  it('when one card is asked for, then CREDITCARDMSGSRSV1 with one STMTTRN per listed record, debits negative', async () => {
    const items = await collect(finance.paginate.creditCardTransactions({ cardIds: [CARD], limit: 100 }));
    const ofx = parseSync(await text(await finance.exports.creditCard({ cardIds: [CARD], format: 'ofx' })));
    const statement = ofx.OFX.CREDITCARDMSGSRSV1.CCSTMTTRNRS.CCSTMTRS;
    expect(statement.CCACCTFROM.ACCTID).toBe(items[0]!.finalCardNumber);
    const transactions = transactionsOf(statement.BANKTRANLIST);
    expect(transactions).toHaveLength(items.length);
    let total = 0;
    for (const [i, item] of items.entries()) {
      total += Math.round(item.brlAmount * 100);
      expect(transactions[i]).toEqual({
        TRNTYPE: 'DEBIT',
        DTPOSTED: ofxTime(item.transactionDate),
        TRNAMT: (-item.brlAmount).toFixed(2),
        FITID: item.id,
        NAME: item.merchantName,
        MEMO: [item.description, item.notes].filter(Boolean).join(' - '),
      });
    }
    expect(statement.LEDGERBAL.BALAMT).toBe((-total / 100).toFixed(2));
  });
});
