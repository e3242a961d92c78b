// Demo people for `finance seed`: the company's roles, one account owner (MAIN), one
// administrator (RESPONSIBLE), managers and employees with Brazilian names on the company's
// domain (one of them inactive), and one pending invite. Deterministic from ctx.rng.
import type { Db } from '../../db/database.js';
import { seededUuid } from '../../lib/random.js';
import type { SeedContext } from './seed-context.js';
import type { InviteRow, RoleProfile, RoleRow, UserRow } from '../../areas/users/tables.js';
import { insertRoles } from '../../areas/users/store/roles.js';
import { insertUsers } from '../../areas/users/store/users.js';
import { insertInvite } from '../../areas/users/store/invites.js';
import { seedState } from './users-state.js';
import { normalizeEmail } from '../../areas/users/email.js';
import { INVITE_TTL_MS } from '../../areas/users/invites-service.js';
import { writeTransaction } from '../../db/transaction.js';

const ROLES: Array<[string, RoleProfile]> = [
  ['Account owner', 'MAIN'],
  ['Administrator', 'RESPONSIBLE'],
  ['Finance manager', 'MANAGER'],
  ['Team lead', 'MANAGER'],
  ['Employee', 'EMPLOYEE'],
];

const FIRST = [
  'Ana',
  'Beatriz',
  'Bruno',
  'Camila',
  'Carlos',
  'Daniela',
  'Eduardo',
  'Fernanda',
  'Gabriel',
  'Helena',
  'Igor',
  'Juliana',
  'Lucas',
  'Larissa',
  'Marcelo',
  'Mariana',
  'Otávio',
  'Patrícia',
  'Rafael',
  'Renata',
  'Thiago',
  'Vanessa',
];
const LAST = [
  'Almeida',
  'Barbosa',
  'Cardoso',
  'Costa',
  'Ferreira',
  'Gomes',
  'Lima',
  'Martins',
  'Mendes',
  'Oliveira',
  'Pereira',
  'Ribeiro',
  'Rocha',
  'Santos',
  'Silva',
  'Souza',
];

/** Profiles of the seeded users after the owner and the administrator. */
const OTHERS: RoleProfile[] = [
  'MANAGER',
  'MANAGER',
  'EMPLOYEE',
  'EMPLOYEE',
  'EMPLOYEE',
  'EMPLOYEE',
  'EMPLOYEE',
  'EMPLOYEE',
  'EMPLOYEE',
];

/** "Padaria Pão Quente Ltda" → "padariapaoquente.com.br" */
function companyDomain(companyName: string): string {
  const words = companyName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !['ltda', 'sa', 's', 'a', 'me', 'eireli', 'epp', 'cia'].includes(w));
  return `${words.join('').slice(0, 40) || 'empresa'}.com.br`;
}

const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

export async function seedUsers(db: Db, ctx: SeedContext): Promise<void> {
  const { companyName, seeded } = await seedState(db, ctx.companyId);
  if (seeded) return; // people are not duplicated by a second seed
  const domain = companyDomain(companyName);
  const now = ctx.clock.now().toISOString();

  const roles: RoleRow[] = ROLES.map(([name, profile]) => ({
    id: seededUuid(ctx.rng, ctx.companyId),
    company_id: ctx.companyId,
    name,
    profile,
    created_at: now,
  }));
  const roleOf = (profile: RoleProfile) => roles.filter((r) => r.profile === profile);

  const taken = new Set<string>();
  const person = () => {
    for (;;) {
      const first = ctx.rng.pick(FIRST);
      const last = ctx.rng.pick(LAST);
      const email = `${ascii(first)}.${ascii(last)}@${domain}`;
      if (!taken.has(email)) {
        taken.add(email);
        return { name: `${first} ${last}`, email };
      }
    }
  };
  const phone = () =>
    `+55${ctx.rng.pick(['11', '21', '31', '41', '51', '61'])}9${String(ctx.rng.int(0, 99_999_999)).padStart(8, '0')}`;

  const profiles: RoleProfile[] = ['MAIN', 'RESPONSIBLE', ...OTHERS];
  const inactiveAt = profiles.length - 1;
  const users: UserRow[] = profiles.map((profile, i) => {
    const { name, email } = person();
    return {
      id: seededUuid(ctx.rng, ctx.companyId),
      company_id: ctx.companyId,
      email,
      email_normalized: normalizeEmail(email),
      name,
      phone: i < 2 || ctx.rng.chance(0.6) ? phone() : null,
      role_id: ctx.rng.pick(roleOf(profile)).id,
      active: i === inactiveAt ? 0 : 1,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
  });

  const invited = person();
  const invite: InviteRow = {
    id: seededUuid(ctx.rng, ctx.companyId),
    company_id: ctx.companyId,
    email: invited.email,
    email_normalized: normalizeEmail(invited.email),
    role_id: ctx.rng.pick(roleOf('EMPLOYEE')).id,
    status: 'PENDING',
    created_at: now,
    expires_at: new Date(ctx.clock.now().getTime() + INVITE_TTL_MS).toISOString(),
    accepted_at: null,
    user_id: null,
  };

  await writeTransaction(db, async (trx) => {
    await insertRoles(trx, roles);
    await insertUsers(trx, users);
    await insertInvite(trx, invite);
  });
}
