import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { expectError } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';

const MiB = 1024 * 1024;
const FILES = {
  'application/pdf': Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  'image/png': Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0'),
  ]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
  'image/heic': Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic')]),
} as const;
type FileType = keyof typeof FILES;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function fixture() {
  const acme = await server.newCompany();
  const bankingId = await createBankingTransaction(
    server.db,
    acme.companyId,
    await createAccount(server.db, acme.companyId),
  );
  return { acme, bankingId };
}
const declare = (t: TestCompany, body: Record<string, unknown>) =>
  t.api.POST('/attachments/v1', {
    body: body as { transactionId: string; statement: 'banking'; name: string; type: FileType },
  });
const declarePdf = (t: TestCompany, bankingId: number, name = 'nota-fiscal.pdf') =>
  declare(t, { transactionId: String(bankingId), statement: 'banking', name, type: 'application/pdf' });
const put = (url: string, body: Buffer, type: string) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'Content-Type': type } });
const content = (t: TestCompany, id: string) =>
  t.api.GET('/attachments/v1/content/{attachmentId}', {
    params: { path: { attachmentId: id } },
    parseAs: 'arrayBuffer',
  });
const bankingItem = async (t: TestCompany, id: number) =>
  (await t.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } })).data!.transactions.find(
    (x) => x.id === id,
  )!;

describe('createAttachment', () => {
  it('when a banking transaction is named, then 201 with id, a signed upload URL valid 15 minutes and a Location', async () => {
    const { acme, bankingId } = await fixture();
    const { data, response } = await declarePdf(acme, bankingId);
    expect(response.status).toBe(201);
    expect(data!.uploadUrl).toMatch(
      new RegExp(`^${server.baseUrl}/attachments/v1/uploads/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`),
    );
    expect(Date.parse(data!.expiresAt) - server.clock.now().getTime()).toBe(15 * 60_000);
    expect(response.headers.get('Location')).toBe(`/attachments/v1/content/${data!.id}`);
    // Not visible before the upload.
    expect((await bankingItem(acme, bankingId)).attachments).toEqual([]);
    expectError(await content(acme, data!.id), 404);
  });

  it('when a credit-card record is named by its ULID, then 201', async () => {
    const acme = await server.newCompany();
    const id = await createCreditCardTransaction(server.db, acme.companyId);
    const { response } = await declare(acme, {
      transactionId: id,
      statement: 'credit-card',
      name: 'recibo.jpg',
      type: 'image/jpeg',
    });
    expect(response.status).toBe(201);
  });

  it.each([
    ['a banking id that is not an integer', { transactionId: 'abc', statement: 'banking' }],
    ['a credit-card id that is not a ULID', { transactionId: '42', statement: 'credit-card' }],
    ['an unknown statement', { statement: 'savings' }],
    ['an unsupported type', { type: 'text/plain' }],
    ['an empty name', { name: '' }],
    ['a name with a path', { name: '../etc/passwd' }],
    ['an unknown field', { size: 10 }],
  ])('when the body has %s, then 400', async (_name, override) => {
    const { acme, bankingId } = await fixture();
    expectError(
      await declare(acme, {
        transactionId: String(bankingId),
        statement: 'banking',
        name: 'a.pdf',
        type: 'application/pdf',
        ...override,
      }),
      400,
    );
  });

  it("when the transaction is absent or another company's, then 404", async () => {
    const { bankingId } = await fixture();
    const globex = await server.newCompany();
    expectError(await declarePdf(globex, bankingId), 404);
    expectError(
      await declare(globex, {
        transactionId: '01JD3Q5W2K8Z9Y7X6V5T4S3R2Q',
        statement: 'credit-card',
        name: 'a.pdf',
        type: 'application/pdf',
      }),
      404,
    );
  });

  it('when the transaction holds 20 attachments, then the 21st is 409 until pending ones expire', async () => {
    const { acme, bankingId } = await fixture();
    for (let i = 0; i < 20; i += 1) expect((await declarePdf(acme, bankingId)).response.status).toBe(201);
    expectError(await declarePdf(acme, bankingId), 409);
    server.clock.advance(15 * 60_000);
    expect((await declarePdf(acme, bankingId)).response.status).toBe(201);
  });

  it('when the token lacks statements:write, then 403; without a token, 401', async () => {
    const { bankingId } = await fixture();
    const reader = await server.newCompany({ scopes: ['statements:read'] });
    expectError(await declarePdf(reader, bankingId), 403);
    expectError(
      await server.anonymous.POST('/attachments/v1', {
        body: { transactionId: '1', statement: 'banking', name: 'a.pdf', type: 'application/pdf' },
      }),
      401,
    );
  });
});

describe('uploadAttachmentContent', () => {
  it.each(Object.keys(FILES) as FileType[])(
    'when a %s file is sent with its type, then 200, listed on the transaction and readable',
    async (type) => {
      const { acme, bankingId } = await fixture();
      const { data } = await declare(acme, {
        transactionId: String(bankingId),
        statement: 'banking',
        name: `arquivo.${type.split('/')[1]}`,
        type,
      });
      const response = await put(data!.uploadUrl, FILES[type], type);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        id: data!.id,
        type,
        size: FILES[type].length,
        transactionId: String(bankingId),
        statement: 'banking',
      });
      const item = await bankingItem(acme, bankingId);
      expect(item.attachments).toEqual([
        {
          id: data!.id,
          name: `arquivo.${type.split('/')[1]}`,
          type,
          _links: { content: { href: `/attachments/v1/content/${data!.id}`, rel: 'content' } },
        },
      ]);
      const { data: hasAttachments } = await acme.api.GET('/statements/v1/banking', {
        params: { query: { hasAttachments: true } },
      });
      expect(hasAttachments!.transactions.map((t) => t.id)).toEqual([bankingId]);
    },
  );

  it('when a transaction of each statement holds several attachments, then its list item and the event of its PATCH show the uploaded ones oldest first, not the pending one', async () => {
    const { acme, bankingId } = await fixture();
    const cardId = await createCreditCardTransaction(server.db, acme.companyId);
    const names = ['c.pdf', 'a.pdf', 'b.pdf'];
    const upload = async (transactionId: string, statement: 'banking' | 'credit-card') => {
      const declared: Array<{ id: string; uploadUrl: string }> = [];
      for (const name of [...names, 'pending.pdf']) {
        declared.push((await declare(acme, { transactionId, statement, name, type: 'application/pdf' })).data!);
      }
      // Uploaded in another order than declared: the lists follow the upload.
      for (const i of [1, 0, 2]) {
        server.clock.advance(1_000);
        expect((await put(declared[i]!.uploadUrl, FILES['application/pdf'], 'application/pdf')).status).toBe(200);
      }
      return [1, 0, 2].map((i) => ({ id: declared[i]!.id, name: names[i] }));
    };
    const banking = await upload(String(bankingId), 'banking');
    const card = await upload(cardId, 'credit-card');
    const summary = (a: { id: string; name: string }) => ({ id: a.id, name: a.name });

    expect((await bankingItem(acme, bankingId)).attachments.map(summary)).toEqual(banking);
    const patched = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: bankingId } },
      body: { notes: 'três anexos' },
    });
    expect(patched.response.status).toBe(204);
    const events = await acme.api.GET('/events/v1/events', {
      params: { query: { types: ['banking_transaction.updated'] } },
    });
    const object = events.data!.items[0]!.data.object as { attachments: Array<{ id: string; name: string }> };
    expect(object.attachments.map(summary)).toEqual(banking);

    const cards = await acme.api.GET('/statements/v1/credit-card', { params: { query: { limit: 50 } } });
    expect(cards.data!.transactions.find((t) => t.id === cardId)!.attachments.map(summary)).toEqual(card);
  });

  it('when Content-Type differs from the declared type, then 400 and nothing is visible; the same URL then works', async () => {
    const { acme, bankingId } = await fixture();
    const { data } = await declarePdf(acme, bankingId);
    const wrong = await put(data!.uploadUrl, FILES['image/png'], 'image/png');
    expect(wrong.status).toBe(400);
    expect((await bankingItem(acme, bankingId)).attachments).toEqual([]);
    expect((await put(data!.uploadUrl, FILES['application/pdf'], 'application/pdf; charset=binary')).status).toBe(200);
  });

  it('when the bytes are not of the declared type, or the body is empty, then 400', async () => {
    const { acme, bankingId } = await fixture();
    const { data } = await declarePdf(acme, bankingId);
    expect((await put(data!.uploadUrl, Buffer.from('hello, not a pdf'), 'application/pdf')).status).toBe(400);
    expect((await put(data!.uploadUrl, Buffer.alloc(0), 'application/pdf')).status).toBe(400);
  });

  it('when the file is exactly 10 MiB, then 200; one byte more, then 413', async () => {
    const { acme, bankingId } = await fixture();
    const big = Buffer.alloc(10 * MiB, 0x20);
    FILES['application/pdf'].copy(big);
    const tooBig = Buffer.concat([big, Buffer.from(' ')]);
    const first = (await declarePdf(acme, bankingId)).data!;
    const second = (await declarePdf(acme, bankingId)).data!;
    const refused = await put(first.uploadUrl, tooBig, 'application/pdf');
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 413 });
    expect((await put(first.uploadUrl, Buffer.concat([big, Buffer.alloc(MiB)]), 'application/pdf')).status).toBe(413);
    expect((await put(second.uploadUrl, big, 'application/pdf')).status).toBe(200);
  });

  it('when the Content-Type is not an accepted type, then 415', async () => {
    const { acme, bankingId } = await fixture();
    const { data } = await declarePdf(acme, bankingId);
    expect((await put(data!.uploadUrl, Buffer.from('text'), 'text/plain')).status).toBe(415);
  });

  it('when the URL is used twice, then 409; concurrently, then exactly one succeeds', async () => {
    const { acme, bankingId } = await fixture();
    const { data } = await declarePdf(acme, bankingId);
    expect((await put(data!.uploadUrl, FILES['application/pdf'], 'application/pdf')).status).toBe(200);
    expect((await put(data!.uploadUrl, FILES['application/pdf'], 'application/pdf')).status).toBe(409);
    const other = (await declarePdf(acme, bankingId)).data!;
    const statuses = await Promise.all(
      [1, 2, 3].map(() => put(other.uploadUrl, FILES['application/pdf'], 'application/pdf').then((r) => r.status)),
    );
    expect(statuses.sort()).toEqual([200, 409, 409]);
    expect((await bankingItem(acme, bankingId)).attachments).toHaveLength(2);
  });

  it('when 14:59 have passed, then the upload works; at 15:00, then 403', async () => {
    const { acme, bankingId } = await fixture();
    const a = (await declarePdf(acme, bankingId)).data!;
    const b = (await declarePdf(acme, bankingId)).data!;
    server.clock.advance(15 * 60_000 - 1_000);
    expect((await put(a.uploadUrl, FILES['application/pdf'], 'application/pdf')).status).toBe(200);
    server.clock.advance(1_000);
    expect((await put(b.uploadUrl, FILES['application/pdf'], 'application/pdf')).status).toBe(403);
  });

  it('when the URL is altered, then 403', async () => {
    const { acme, bankingId } = await fixture();
    const { data } = await declarePdf(acme, bankingId);
    const tampered = data!.uploadUrl.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await put(tampered, FILES['application/pdf'], 'application/pdf')).status).toBe(403);
  });
});

describe('getAttachmentContent', () => {
  it('when uploaded, then the same bytes with the type, a download name and the content hash as ETag', async () => {
    const { acme, bankingId } = await fixture();
    const { data } = await declarePdf(acme, bankingId, 'Nota fiscal nº 45.pdf');
    await put(data!.uploadUrl, FILES['application/pdf'], 'application/pdf');
    const { data: bytes, response } = await content(acme, data!.id);
    expect(response.status).toBe(200);
    expect(Buffer.from(bytes as ArrayBuffer)).toEqual(FILES['application/pdf']);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Nota fiscal n_ 45.pdf"; filename*=UTF-8''${encodeURIComponent('Nota fiscal nº 45.pdf')}`,
    );
    expect(response.headers.get('ETag')).toBe(
      `"${createHash('sha256').update(FILES['application/pdf']).digest('hex')}"`,
    );
  });

  it("when the attachment is another company's, absent or pending, then 404; a malformed id, 400; no scope, 403", async () => {
    const { acme, bankingId } = await fixture();
    const globex = await server.newCompany();
    const { data } = await declarePdf(acme, bankingId);
    expectError(await content(acme, data!.id), 404);
    await put(data!.uploadUrl, FILES['application/pdf'], 'application/pdf');
    expectError(await content(globex, data!.id), 404);
    expectError(await content(acme, '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'), 404);
    expectError(await content(acme, 'nope'), 400);
    const writer = await server.newCompany({ scopes: ['statements:write'] });
    expectError(await content(writer, data!.id), 403);
  });
});

describe('attachment files on disk', () => {
  it('when a data folder is configured, then files are stored once by content hash, with no partial files left', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'finance-attachments-'));
    const disk = await startTestServer({ config: { dataDir } });
    try {
      const acme = await disk.newCompany();
      const bankingId = await createBankingTransaction(
        disk.db,
        acme.companyId,
        await createAccount(disk.db, acme.companyId),
      );
      for (let i = 0; i < 2; i += 1) {
        const { data } = await acme.api.POST('/attachments/v1', {
          body: { transactionId: String(bankingId), statement: 'banking', name: `n${i}.pdf`, type: 'application/pdf' },
        });
        expect((await put(data!.uploadUrl, FILES['application/pdf'], 'application/pdf')).status).toBe(200);
        const { data: bytes } = await acme.api.GET('/attachments/v1/content/{attachmentId}', {
          params: { path: { attachmentId: data!.id } },
          parseAs: 'arrayBuffer',
        });
        expect(Buffer.from(bytes as ArrayBuffer)).toEqual(FILES['application/pdf']);
      }
      const hash = createHash('sha256').update(FILES['application/pdf']).digest('hex');
      const file = join(dataDir, 'attachments', hash.slice(0, 2), hash);
      expect(readFileSync(file)).toEqual(FILES['application/pdf']);
      expect(readdirSync(join(dataDir, 'attachments', 'tmp'))).toEqual([]);
      expect(await disk.db.selectFrom('attachment_blobs').selectAll().execute()).toEqual([]);
      expect(existsSync(file)).toBe(true);
    } finally {
      await disk.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
