// The sandbox's docs page serves samples that run as pasted: path parameters carry ids of the demo
// company (the store's first company), so a copied curl line answers 2xx instead of 404.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany } from '../server/cli/seed.js';
import { buildDocs, docsPath } from '../server/docs.js';
import { demoIds } from '../server/sandbox/docs-demo.js';
import { sampleEdits } from '../server/docs-samples.js';
import { loadBundle } from '../server/contract/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let demo: TestCompany;
let html: string;

beforeAll(async () => {
  if (!existsSync(docsPath)) await buildDocs();
  server = await startTestServer();
  demo = await server.newCompany();
  await seedCompany(server.db, { companyId: demo.companyId, transactions: 30, seed: 5, clock: server.clock });
  html = await (await fetch(`${server.baseUrl}/docs`)).text();
}, 180_000);
afterAll(async () => server?.close());

/** The samples as served: (contract example's source, demo source) with the served base URL. */
const served = async () =>
  sampleEdits(loadBundle('public'), await demoIds(server.db)).map(
    ([from, to]): [string, string] =>
      [from, to].map((s) => s.split('http://localhost:8080').join(server.baseUrl)) as [string, string],
  );

describe('samples with demo ids', () => {
  it('when the sandbox serves the docs, then the samples of operations with ids name the demo company’s', async () => {
    const edits = await served();
    expect(edits.length).toBeGreaterThan(10);
    const ids = await demoIds(server.db);
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

  it('when each changed GET curl line is run as pasted with the demo token, then it answers 2xx (the card page its documented 308)', async () => {
    const gets = (await served()).map(([, to]) => to).filter((source) => source.startsWith('curl -s "'));
    // The bill's sample keeps the contract's example when the demo's latest bill is due on that very date (the
    // seed's bills move with the clock), so it may be the one GET sample that does not change.
    expect(gets.length).toBeGreaterThanOrEqual(5);
    for (const source of gets) {
      const url = /^curl -s "([^"]+)"/.exec(source)![1]!;
      const res = await fetch(url, { headers: { Authorization: `Bearer ${demo.token}` }, redirect: 'manual' });
      expect(res.status, url).toBeLessThan(400);
      await res.body?.cancel();
    }
  });

  it('when the PATCH samples are served, then they name a cost center and a category of the demo company', async () => {
    const ids = await demoIds(server.db);
    expect(ids['body.costCenterId']).toBeDefined();
    expect(ids['body.categoryId']).toBeDefined();
    const edits = await served();
    const patch = edits.map(([, to]) => to).find((s) => s.startsWith('curl -s -X PATCH') && s.includes('/banking/'));
    expect(patch).toContain(`"costCenterId":"${ids['body.costCenterId']}"`);
    expect(patch).toContain(`"categoryId":${ids['body.categoryId']}`);
    expect(html.includes(JSON.stringify(patch).slice(1, -1))).toBe(true);
  });

  it('when the Try-it console is served, then its fields start with the demo company’s ids', async () => {
    const ids = await demoIds(server.db);
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

  it('when every changed curl sample is run as pasted, reads first and deletes last (the demo data goes last), then each answers 2xx (the card page its 308)', async () => {
    const curls = (await served()).map(([, to]) => to).filter((source) => source.startsWith('curl '));
    const order = (source: string) => (/-X DELETE/.test(source) ? 2 : /-X /.test(source) ? 1 : 0);
    const sorted = [...curls].sort((a, b) => order(a) - order(b));
    expect(sorted.some((source) => source.startsWith('curl -s -X PATCH "') && source.includes('/banking/'))).toBe(true);
    for (const source of sorted) {
      const method = /-X (\w+)/.exec(source)?.[1] ?? 'GET';
      const url = /"(http[^"]+)"/.exec(source)![1]!;
      const data = /-d '((?:[^']|'\\'')*)'/.exec(source)?.[1]?.replace(/'\\''/g, "'");
      const res = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${demo.token}`,
          ...(data !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(data !== undefined ? { body: data } : {}),
        redirect: 'manual',
      });
      expect(res.status, `${source}\n${(await res.text()).slice(0, 300)}`).toBeLessThan(400);
    }
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
