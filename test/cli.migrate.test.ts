// Only `finance migrate` changes the schema (and a server's start): a command run with a build newer
// than the store, such as `finance client create`, refuses it naming the pending migration and
// changes nothing; `finance migrate` names each migration it runs, and says the schema is up to date
// only when it ran none.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../server/db/database.js';
import { describeLocation, openStore } from '../server/db/store.js';
import { migrations } from '../server/db/migrations/index.js';
import { systemClock } from '../server/lib/clock.js';
import { createCompany } from '../server/areas/auth/store.js';
import { finance, financeInProcess } from './support/cli.js';
import { freshDatabase } from './support/database.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finance migrate', () => {
  it('when the store is one migration behind, then client create refuses it and changes nothing; migrate names what it ran, then says up to date', async () => {
    const location = await freshDatabase(dir);
    const names = Object.keys(migrations).sort();
    const last = names.at(-1)!;
    const store = await openStore(location, { migrate: false });
    await migrate(store.db, Object.fromEntries(names.slice(0, -1).map((name) => [name, migrations[name]!])));
    const companyId = await createCompany(store.db, systemClock, { name: 'Atrasada Ltda' });
    await store.close();
    const where = describeLocation(location);

    const refused = await financeInProcess(
      ['client', 'create', '--db', location, '--company', companyId, '--scopes', 'users:read'],
      { LOG_LEVEL: 'silent' },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${where} needs migrating (1 migration(s) of this build not run: ${last})`);
    expect(refused.stderr).toContain('run `finance migrate` with the same --db first');
    const status = JSON.parse(await finance(['migrate', '--status', '--db', location, '--json'])) as {
      pending: string[];
    };
    expect(status.pending).toEqual([last]);
    expect((await financeInProcess(['company', 'list', '--db', location])).stderr).toContain('needs migrating');

    expect(await finance(['migrate', '--db', location])).toBe(`${where}: applied ${last}\n`);
    expect(await finance(['migrate', '--db', location])).toBe(`${where}: schema up to date\n`);
    const made = JSON.parse(
      await finance(['client', 'create', '--db', location, '--company', companyId, '--scopes', 'users:read', '--json']),
    ) as { companyId: string };
    expect(made.companyId).toBe(companyId);
  }, 60_000);
});
