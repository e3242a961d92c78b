// `finance invite` on a database file, run in this process (the command tree of bin/finance.js; test/cli.test.ts
// spawns the command where a process of its own matters).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../server/db/store.js';
import { createInvite, createRoles, type Roles } from './support/factories/users.js';
import { finance as runFinance } from './support/cli.js';
import { freshDatabase } from './support/database.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-invite-'));
const dbPath = await freshDatabase(dir);
const finance = (...args: string[]) => runFinance([...args, '--db', dbPath], { LOG_LEVEL: 'silent' });

let companyId: string;
let roles: Roles;

beforeAll(async () => {
  ({ companyId } = JSON.parse(await finance('company', 'create', '--name', 'Construtora Horizonte Ltda', '--json')));
  const db = (await openStore(dbPath)).db;
  try {
    roles = await createRoles(db, companyId);
    const far = '2999-01-01T00:00:00.000Z';
    await createInvite(db, companyId, {
      role_id: roles.manager.id,
      email: 'Renata.Gomes@horizonte.com.br',
      expires_at: far,
    });
    await createInvite(db, companyId, {
      role_id: roles.employee.id,
      email: 'igor.lima@horizonte.com.br',
      expires_at: far,
    });
    await createInvite(db, companyId, {
      role_id: roles.employee.id,
      email: 'atrasado@horizonte.com.br',
      expires_at: '2000-01-01T00:00:00.000Z',
    });
  } finally {
    await db.destroy();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finance invite accept', () => {
  it('when the invite is pending, then it prints the new active user with the invited role', async () => {
    const user = JSON.parse(
      await finance(
        'invite',
        'accept',
        '--company',
        companyId,
        '--email',
        'renata.gomes@HORIZONTE.com.br',
        '--name',
        'Renata Gomes',
        '--json',
      ),
    );
    expect(user).toEqual({
      userId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      companyId,
      email: 'Renata.Gomes@horizonte.com.br',
      name: 'Renata Gomes',
      roleId: roles.manager.id,
      roleName: 'Finance manager',
      active: true,
    });
  }, 30_000);

  it('when no name is given, then the name comes from the address', async () => {
    const user = JSON.parse(
      await finance('invite', 'accept', '--company', companyId, '--email', 'igor.lima@horizonte.com.br', '--json'),
    );
    expect(user.name).toBe('Igor Lima');
  }, 30_000);

  it('when the invite was already accepted, expired or never sent, then it fails with a message and exit code 1', async () => {
    for (const email of ['igor.lima@horizonte.com.br', 'atrasado@horizonte.com.br', 'ninguem@horizonte.com.br']) {
      await expect(
        finance('invite', 'accept', '--company', companyId, '--email', email, '--json'),
      ).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('no pending invite'),
      });
    }
  }, 30_000);
});

describe('finance invite list', () => {
  it('when listing, then every invite with its state, expired ones as EXPIRED, filterable by status', async () => {
    const { invites } = JSON.parse(await finance('invite', 'list', '--company', companyId, '--json'));
    expect(invites.map((i: { email: string; status: string }) => `${i.status} ${i.email}`).sort()).toEqual([
      'ACCEPTED Renata.Gomes@horizonte.com.br',
      'ACCEPTED igor.lima@horizonte.com.br',
      'EXPIRED atrasado@horizonte.com.br',
    ]);
    const expired = JSON.parse(
      await finance('invite', 'list', '--company', companyId, '--status', 'expired', '--json'),
    );
    expect(expired.invites).toHaveLength(1);
  }, 30_000);
});
