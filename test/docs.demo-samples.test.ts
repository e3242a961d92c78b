// The sandbox's docs page serves samples that run as pasted: path parameters carry ids of the demo
// company (the store's first company), so a copied curl line answers 2xx instead of 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany } from '../server/cli/seed.js';
import { demoIds } from '../server/sandbox/docs-demo.js';
import { SHIFT_DAYS, sampleEdits } from '../server/docs-samples.js';
import { loadBundle } from '../server/contract/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';

let server: TestServer;
let demo: TestCompany;
let html: string;

beforeAll(async () => {
  server = await startTestServer();
  demo = await server.newCompany();
  await seedCompany(server.db, { companyId: demo.companyId, transactions: 30, seed: 5, clock: server.clock });
  // A pending transaction of each statement: what the sandbox's removal samples drop.
  const account = await createAccount(server.db, demo.companyId);
  await createBankingTransaction(server.db, demo.companyId, account, { status: 3 });
  await createCreditCardTransaction(server.db, demo.companyId, { status: 3 });
  html = await (await fetch(`${server.baseUrl}/docs`)).text();
}, 180_000);
afterAll(async () => server?.close());

/** The samples as served: (contract example's source, demo source) with the served base URL. */
const served = async () =>
  sampleEdits(loadBundle('public'), await demoIds(server.db, server.clock.now())).map(
    ([from, to]): [string, string] =>
      [from, to].map((s) => s.split('http://localhost:8080').join(server.baseUrl)) as [string, string],
  );

describe('samples with demo ids', () => {
  it('when the sandbox serves the docs, then the samples of operations with ids name the demo company’s', async () => {
    const edits = await served();
    expect(edits.length).toBeGreaterThan(10);
    const ids = await demoIds(server.db, server.clock.now());
    expect(Object.keys(ids)).toEqual(
      expect.arrayContaining([
        '/statements/v1/banking/{transactionId}',
        '/statements/v1/credit-card/{transactionId}',
        '/cost-centers/v1/cost-centers/{id}',
        '/suppliers/v1/suppliers/{id}',
        '/categories/v1/categories/{id}',
        '/users/v1/users/{userId}',
      ]),
    );
    for (const [from, to] of edits) {
      expect(html).toContain(JSON.stringify(to).slice(1, -1));
      expect(html).not.toContain(JSON.stringify(from).slice(1, -1));
    }
    expect(html).toContain(`/statements/v1/banking/${ids['/statements/v1/banking/{transactionId}']}/receipt`);
  });

  it('when the PATCH samples are served, then they name a cost center and a category of the demo company', async () => {
    const ids = await demoIds(server.db, server.clock.now());
    expect(ids['body.costCenterId']).toBeDefined();
    expect(ids['body.categoryId']).toBeDefined();
    const edits = await served();
    const patch = edits.map(([, to]) => to).find((s) => s.startsWith('curl -s -X PATCH') && s.includes('/banking/'));
    expect(patch).toContain(`"costCenterId":"${ids['body.costCenterId']}"`);
    expect(patch).toContain(`"categoryId":${ids['body.categoryId']}`);
    expect(html.includes(JSON.stringify(patch).slice(1, -1))).toBe(true);
  });

  it('when the Try-it console is served, then its fields start with the demo company’s ids', async () => {
    const ids = await demoIds(server.db, server.clock.now());
    const json = /<script type="application\/json" id="try-it-operations">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const operations = JSON.parse(json) as Array<{
      operationId: string;
      parameters: Array<{ name: string; value: string }>;
      body?: string;
    }>;
    const patch = operations.find((op) => op.operationId === 'reconcileBankingTransaction')!;
    expect(patch.parameters.find((p) => p.name === 'transactionId')?.value).toBe(
      String(ids['/statements/v1/banking/{transactionId}']),
    );
    expect(JSON.parse(patch.body!)).toMatchObject({ costCenterId: ids['body.costCenterId'] });
    expect(json.includes('48213')).toBe(false);
  });

  it('when an operation answers 204, then its TypeScript sample keeps no result', () => {
    expect(html.includes("await unwrap(finance.DELETE('/cost-centers/v1/cost-centers/{id}'")).toBe(true);
    expect(html.includes("const result = await unwrap(finance.DELETE('/cost-centers/v1/cost-centers/{id}'")).toBe(
      false,
    );
  });

  it('when the company’s today moves 10 days, then the dates of the body examples move 10 days (a sample never asks for the past)', async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 10 * 86_400_000);
    const [today, inTenDays] = [await demoIds(server.db, now), await demoIds(server.db, later)];
    expect(Number(inTenDays[SHIFT_DAYS]) - Number(today[SHIFT_DAYS])).toBe(10);
    const checkIn = (ids: Record<string, string | number>) => {
      const sample = sampleEdits(loadBundle('public'), ids)
        .map(([, to]) => to)
        .find((source) => source.startsWith('curl -s -X POST') && source.includes('/credit-cards/v1/vcns"'));
      return /"checkIn":"(\d{4}-\d{2}-\d{2})"/.exec(sample ?? '')?.[1];
    };
    const [a, b] = [checkIn({ ...today, [SHIFT_DAYS]: 1 }), checkIn({ ...today, [SHIFT_DAYS]: 11 })];
    expect(a).toBeDefined();
    expect((Date.parse(b!) - Date.parse(a!)) / 86_400_000).toBe(10);
  });

  it('when the store has no company, then the samples keep the contract’s examples', async () => {
    const empty = await startTestServer();
    try {
      const page = await (await fetch(`${empty.baseUrl}/docs`)).text();
      expect(page).toContain(`${empty.baseUrl}/statements/v1/banking/48213`);
    } finally {
      await empty.close();
    }
  });
});
