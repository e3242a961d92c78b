// Idempotency-Key across a crash between a write's commit and its answer: a real `finance serve`
// process is killed (SIGKILL) the moment its keyed batch has committed, before the answer was stored.
// The write recorded its outcome on the key in its own transaction, so once the dead attempt's lease
// runs out (seconds), the retry with the key answers for that write — 201 with the batch — and never
// makes it again.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../server/db/database.js';
import { freshDatabase } from './support/database.js';
import { createAccount } from './support/factories/statements.js';
import { sharedCompany, startProcesses, startServerProcess, type ServerProcess } from './support/processes.js';

const ROWS = 1000;
let dir: string;
let location: string;
let db: Db;
let server: ServerProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idempotency-crash-'));
  location = await freshDatabase(dir);
  const started = await startProcesses(location, [0]);
  db = started.db;
  server = started.servers[0]!;
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const batch = (marker: string) => ({
  transactions: Array.from({ length: ROWS }, (_, i) => ({
    brlAmount: (1000 + i) / 100,
    description: `${marker} ${i}`,
  })),
});

const post = (baseUrl: string, token: string, key: string, body: unknown) =>
  fetch(`${baseUrl}/sandbox/v1/banking-transactions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });

/** The key's row as the store holds it. */
const keyRow = (companyId: string, key: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(['status', 'outcome', 'response_status'])
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .executeTakeFirst();

describe('Idempotency-Key across a crash', () => {
  it('when the process dies after the batch committed and before its answer, then the retry after restart answers 201 and the batch is stored once', async () => {
    const company = await sharedCompany(db, [server]);
    await createAccount(db, company.companyId);
    const marker = `crash-${randomUUID()}`;
    const key = randomUUID();
    const body = batch(marker);

    // Sent, then killed as soon as its write committed (its outcome is on the key) and before the
    // answer replaced it.
    const sent = post(server.baseUrl, company.token, key, body).catch(() => undefined);
    let row = await keyRow(company.companyId, key);
    const deadline = Date.now() + 20_000;
    while (!(row?.outcome && row.status === 'running') && Date.now() < deadline) {
      row = await keyRow(company.companyId, key);
    }
    server.child.kill('SIGKILL');
    await sent;
    expect(row, 'the write committed, its answer not yet stored, when the process died').toMatchObject({
      status: 'running',
      response_status: null,
    });
    expect(row?.outcome).not.toBeNull();

    server = await startServerProcess(location);
    const startedAt = Date.now();
    let retry = await post(server.baseUrl, company.token, key, body);
    while (retry.status === 409) {
      expect(Number(retry.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, 250));
      retry = await post(server.baseUrl, company.token, key, body);
    }
    expect(Date.now() - startedAt).toBeLessThan(30_000);
    expect(retry.status).toBe(201);
    const answered = (await retry.json()) as { transactions: Array<{ description: string }> };
    expect(answered.transactions.map((t) => t.description)).toEqual(body.transactions.map((t) => t.description));

    const { n } = await db
      .selectFrom('banking_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', company.companyId)
      .where('description', 'like', `${marker} %`)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(ROWS);

    // From then on, the stored answer.
    const again = await post(server.baseUrl, company.token, key, body);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.json()).toEqual(answered);
  }, 60_000);
});
