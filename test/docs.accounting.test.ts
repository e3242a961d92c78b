// docs/accounting.md runs as written: its shell blocks, in order, in one bash with FINANCE and TOKEN
// set, against a company with three processed banking transactions and a category; each block's
// output is checked against what the guide says it shows.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory } from './support/factories/directory.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';
import { startTestServer, type TestServer } from './support/server.js';

const run = promisify(execFile);
const MARK = '=== block';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'accounting-guide-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const blocks = () =>
  [...readFileSync(new URL('../docs/accounting.md', import.meta.url), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );

describe('docs/accounting.md', () => {
  it('when its shell blocks run in order, then each shows what the guide says', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    await createBankingTransactions(server.db, acme.companyId, account, [{ status: 2 }, { status: 2 }, { status: 2 }]);
    await createCategory(server.db, acme.companyId);
    const script = blocks()
      .map((block, i) => `echo '${MARK} ${i}'\n${block}`)
      .join('\n');
    const { stdout } = await run('bash', ['-c', `set -eo pipefail\n${script}`], {
      cwd: dir,
      env: { ...process.env, FINANCE: server.baseUrl, TOKEN: acme.token },
    });
    const out = stdout
      .split(new RegExp(`^${MARK} \\d+\\n`, 'm'))
      .slice(1)
      .map((s) => s.trim());
    expect(out).toHaveLength(6);
    const [ready, recorded, tagged, failed, changed, undone] = out as [string, string, string, string, string, string];
    expect(ready).toBe('3');
    expect(JSON.parse(recorded)).toMatchObject({
      statement: 'banking',
      successful: 1,
      failed: 1,
      unsynced: 0,
      changed: 2,
    });
    expect(JSON.parse(tagged)).toEqual([
      { id: expect.any(Number), metadata: { erp_id: 'JE-2026-00042' }, status: 'SYNCED' },
    ]);
    expect(JSON.parse(failed)).toEqual([{ id: expect.any(Number), error: 'Account 6.1.02 is closed' }]);
    expect(JSON.parse(changed)).toMatchObject({ status: 'OUT_OF_DATE', referenceId: 'JE-2026-00042' });
    expect(JSON.parse(undone)).toMatchObject({ unsynced: 1, changed: 1 });
  });
});
