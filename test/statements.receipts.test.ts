import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { expectError } from './support/factories/directory.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const LINK = '/statements/v1/banking/{transactionId}/receipt';
const link = (t: TestCompany, id: number) => t.api.GET(LINK, { params: { path: { transactionId: id } } });
const download = (url: string) => fetch(url);

async function fixture(status: 1 | 2 | 3 = 2) {
  const acme = await server.newCompany({ name: 'Acme Comércio Ltda' });
  const account = await createAccount(server.db, acme.companyId, { name: 'Conta operações' });
  const id = await createBankingTransaction(server.db, acme.companyId, account, {
    status,
    brl_amount_minor: 54_333,
    usd_amount_minor: 10_000,
    usd_exchange_rate: 5.4333,
    iof_amount_minor: 1902,
    total_amount_minor: 56_235,
    description: 'LATAM AIRLINES GRU-MIA',
    source_destination_name: 'LATAM AIRLINES',
  });
  return { acme, id };
}

/** The text drawn on the PDF's pages (pdfkit writes standard-font text as hex strings in deflated streams). */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\nendstream/g)) {
    // The compressed bytes may themselves end in \r: try them whole first, then without a CRLF's \r.
    const data = match[1]!;
    let content: string | undefined;
    for (const candidate of data.endsWith('\r') ? [data, data.slice(0, -1)] : [data]) {
      try {
        content = inflateSync(Buffer.from(candidate, 'latin1')).toString('latin1');
        break;
      } catch {
        // not this one
      }
    }
    if (content === undefined) continue;
    for (const hex of content.matchAll(/<([0-9a-f]+)>/gi)) text += Buffer.from(hex[1]!, 'hex').toString('latin1');
  }
  return text;
}

describe('getBankingTransactionReceipt', () => {
  it('when the transaction is processed, then 200 with a signed URL valid 5 minutes', async () => {
    const { acme, id } = await fixture();
    const { data, response } = await link(acme, id);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(data!.url).toMatch(new RegExp(`^${server.baseUrl}/statements/v1/receipts/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(Date.parse(data!.expiresAt) - server.clock.now().getTime()).toBe(5 * 60_000);
  });

  it.each([
    [1, 'CANCELED'],
    [3, 'PENDING'],
  ] as const)('when the status is %i (%s), then 409', async (status, _name) => {
    const { acme, id } = await fixture(status);
    expectError(await link(acme, id), 409);
  });

  it("when the transaction is absent or another company's, then 404; without statements:read, 403", async () => {
    const { id } = await fixture();
    const globex = await server.newCompany();
    expectError(await link(globex, id), 404);
    expectError(await link(globex, 123_456_789), 404);
    const writer = await server.newCompany({ scopes: ['statements:write'] });
    expectError(await link(writer, id), 403);
    expectError(await server.anonymous.GET(LINK, { params: { path: { transactionId: id } } }), 401);
  });
});

describe('downloadBankingTransactionReceipt', () => {
  it('when the link is fresh, then a PDF receipt with company, account, date, amounts, description and authentication code', async () => {
    const { acme, id } = await fixture();
    const { data } = await link(acme, id);
    const response = await download(data!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe(`inline; filename="receipt-${id}.pdf"`);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const text = pdfText(pdf);
    for (const part of [
      'Acme Comércio Ltda',
      'Conta operações',
      'LATAM AIRLINES GRU-MIA',
      'R$ 543,33',
      'R$ 19,02',
      'R$ 562,35',
      'US$ 100,00',
      String(id),
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toMatch(/Autenticação[\s\S]*[0-9A-F]{5}(-[0-9A-F]{5}){7}/);
    expect(text).toContain(data!.expiresAt.slice(8, 10));
  });

  it('when the same transaction is rendered twice, then the authentication code is the same', async () => {
    const { acme, id } = await fixture();
    const code = async () =>
      pdfText(Buffer.from(await (await download((await link(acme, id)).data!.url)).arrayBuffer())).match(
        /[0-9A-F]{5}(-[0-9A-F]{5}){7}/,
      )?.[0];
    const first = await code();
    expect(first).toBeDefined();
    expect(await code()).toBe(first);
  });

  it('when 4:59 have passed, then it still downloads; at 5:00, then 403', async () => {
    const { acme, id } = await fixture();
    const { data } = await link(acme, id);
    server.clock.advance(4 * 60_000 + 59_000);
    expect((await download(data!.url)).status).toBe(200);
    server.clock.advance(1_000);
    const expired = await download(data!.url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ code: 403, error: 'Forbidden' });
  });

  it('when the link is altered, then 403', async () => {
    const { acme, id } = await fixture();
    const { data } = await link(acme, id);
    const dot = data!.url.lastIndexOf('.');
    const [base, signature] = [data!.url.slice(0, dot), data!.url.slice(dot + 1)];
    const otherPayload = Buffer.from(
      JSON.stringify({ c: acme.companyId, t: id + 1, exp: Date.now() + 3_600_000 }),
    ).toString('base64url');
    expect((await download(`${base}.${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`)).status).toBe(403);
    expect((await download(`${server.baseUrl}/statements/v1/receipts/${otherPayload}.${signature}`)).status).toBe(403);
    expect((await download(`${server.baseUrl}/statements/v1/receipts/not-a-token`)).status).toBe(400);
  });

  it('when an upload URL is presented as a receipt link, then 403', async () => {
    const { acme, id } = await fixture();
    const { data } = await acme.api.POST('/attachments/v1', {
      body: { transactionId: String(id), statement: 'banking', name: 'a.pdf', type: 'application/pdf' },
    });
    const token = data!.uploadUrl.split('/').pop()!;
    expect((await download(`${server.baseUrl}/statements/v1/receipts/${token}`)).status).toBe(403);
  });
});
