// Files the server and the CLI write that hold data or secrets are private to their owner: backups,
// SQLite stores we create, exports, uploaded files (0600), and their folders (0700).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../server/db/store.js';
import { backupStore } from '../server/db/sqlite-backup.js';
import { createCompany } from '../server/areas/auth/store.js';
import { systemClock } from '../server/lib/clock.js';
import { putFile, sha256 } from '../server/areas/statements/attachments/file-blobs.js';
import { onPostgres } from './support/database.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'private-files-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(onPostgres)('private files', () => {
  let location: string;
  let companyId: string;

  beforeAll(async () => {
    location = join(dir, 'store', 'finance.sqlite');
    const store = await openStore(location);
    companyId = await createCompany(store.db, systemClock, { name: 'Private Ltda' });
    await store.db.destroy();
  });

  it('when a SQLite store is created, then its file and write-ahead log are 0600 and its new folder 0700', () => {
    expect(modeOf(location)).toBe(0o600);
    if (existsSync(`${location}-wal`)) expect(modeOf(`${location}-wal`)).toBe(0o600);
    expect(modeOf(join(dir, 'store'))).toBe(0o700);
  });

  it('when finance backup copies the store, then the copy is 0600', async () => {
    const out = join(dir, 'backup.sqlite');
    await backupStore(location, out);
    expect(modeOf(out)).toBe(0o600);
  });

  it('when finance export writes a statement, then the file is 0600', () => {
    for (const statement of ['banking', 'credit-card']) {
      const out = join(dir, `${statement}.csv`);
      const run = spawnSync(
        'node',
        [
          'bin/finance.js',
          'export',
          statement,
          '--db',
          location,
          '--company',
          companyId,
          '--format',
          'csv',
          '--out',
          out,
        ],
        { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(modeOf(out)).toBe(0o600);
    }
  });

  it("when an uploaded file is stored, then it is 0600 and the uploads' folders 0700", async () => {
    const dataDir = join(dir, 'data');
    const bytes = Buffer.from('%PDF-1.7 private');
    const hash = sha256(bytes);
    await putFile(dataDir, hash, bytes);
    expect(modeOf(join(dataDir, 'attachments', hash.slice(0, 2), hash))).toBe(0o600);
    for (const folder of ['attachments', `attachments/${hash.slice(0, 2)}`, 'attachments/tmp'])
      expect(modeOf(join(dataDir, folder)), folder).toBe(0o700);
  });
});
