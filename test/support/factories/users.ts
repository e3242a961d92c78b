// Roles, users and invites written straight through the users store, with overridable defaults,
// and the assertion every users-area error test shares.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Db } from '../../../server/db/database.js';
import type { InviteRow, RoleProfile, RoleRow, UserRow } from '../../../server/areas/users/tables.js';
import { insertRoles } from '../../../server/areas/users/store/roles.js';
import { insertUsers } from '../../../server/areas/users/store/users.js';
import { insertInvite } from '../../../server/areas/users/store/invites.js';
import { normalizeEmail } from '../../../server/areas/users/email.js';

const NOW = '2026-11-01T12:00:00.000Z';
let sequence = 0;

export async function createRole(
  db: Db,
  companyId: string,
  overrides: Partial<RoleRow> & { profile: RoleProfile },
): Promise<RoleRow> {
  sequence += 1;
  const role: RoleRow = {
    id: randomUUID(),
    company_id: companyId,
    name: `${overrides.profile} role ${sequence}`,
    created_at: NOW,
    ...overrides,
  };
  await insertRoles(db, [role]);
  return role;
}

export interface Roles {
  main: RoleRow;
  responsible: RoleRow;
  manager: RoleRow;
  employee: RoleRow;
}

/** One role of each profile, named as the seed names them. */
export async function createRoles(db: Db, companyId: string): Promise<Roles> {
  return {
    main: await createRole(db, companyId, { profile: 'MAIN', name: 'Account owner' }),
    responsible: await createRole(db, companyId, { profile: 'RESPONSIBLE', name: 'Administrator' }),
    manager: await createRole(db, companyId, { profile: 'MANAGER', name: 'Finance manager' }),
    employee: await createRole(db, companyId, { profile: 'EMPLOYEE', name: 'Employee' }),
  };
}

export async function createUser(
  db: Db,
  companyId: string,
  overrides: Partial<UserRow> & { role_id: string },
): Promise<UserRow> {
  sequence += 1;
  const email = overrides.email ?? `user${sequence}@acme.com.br`;
  const user: UserRow = {
    id: randomUUID(),
    company_id: companyId,
    email,
    email_normalized: normalizeEmail(email),
    name: `User ${sequence}`,
    phone: null,
    active: 1,
    created_at: NOW,
    updated_at: NOW,
    deleted_at: null,
    ...overrides,
  };
  await insertUsers(db, [user]);
  return user;
}

export async function createInvite(
  db: Db,
  companyId: string,
  overrides: Partial<InviteRow> & { role_id: string; email: string },
): Promise<InviteRow> {
  const invite: InviteRow = {
    id: randomUUID(),
    company_id: companyId,
    email_normalized: normalizeEmail(overrides.email),
    status: 'PENDING',
    created_at: NOW,
    expires_at: '2026-12-01T12:00:00.000Z',
    accepted_at: null,
    user_id: null,
    ...overrides,
  };
  await insertInvite(db, invite);
  return invite;
}

/** A company's people as every users test starts: the roles, the account owner and one administrator. */
export async function createPeople(db: Db, companyId: string) {
  const roles = await createRoles(db, companyId);
  const owner = await createUser(db, companyId, {
    role_id: roles.main.id,
    name: 'Helena Duarte',
    email: 'helena.duarte@acme.com.br',
  });
  const admin = await createUser(db, companyId, {
    role_id: roles.responsible.id,
    name: 'Carlos Mendes',
    email: 'carlos.mendes@acme.com.br',
  });
  return { roles, owner, admin };
}

/** Asserts a users-area error: the status, and a `{field, message}` detail naming `field` (when given). */
export function expectFieldError(
  result: { response: Response; error?: unknown },
  status: number,
  field?: string,
): void {
  expect(result.response.status).toBe(status);
  const body = result.error as { code: number; details: Array<{ field: string; message: string }> };
  expect(body.code).toBe(status);
  for (const detail of body.details) expect(Object.keys(detail).sort()).toEqual(['field', 'message']);
  if (field !== undefined) expect(body.details.map((d) => d.field)).toContain(field);
}
