// `finance invite`: the sandbox stand-in for the invitee's side of an invite.
import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { companyClock } from '../../areas/auth/company-clock.js';
import { acceptInvite } from '../../areas/users/invites-service.js';
import { listInvites } from '../../areas/users/store/invites.js';
import type { InviteStatus } from '../../areas/users/tables.js';
import { nonEmptyName, output, usingDb, withDb } from '../options.js';

const STATUSES: InviteStatus[] = ['PENDING', 'ACCEPTED', 'EXPIRED'];

export function register(program: Command): void {
  const invite = program.command('invite').description('Accept and inspect invites (sandbox)');

  withDb(invite.command('accept'))
    .description("Accept a company's pending invite: the address becomes an active user with the invited role")
    .requiredOption('--company <id>', 'company id')
    .requiredOption('--email <address>', 'the invited address (any case)')
    .option('--name <name>', "the new user's full name (default: derived from the address)", nonEmptyName)
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; email: string; name?: string; json?: boolean }) => {
      const user = await usingDb(opts.db, async (db) =>
        acceptInvite(db, await companyClock(db, systemClock, opts.company), opts.company, {
          email: opts.email,
          ...(opts.name !== undefined ? { name: opts.name } : {}),
        }),
      );
      output(Boolean(opts.json), {
        userId: user.id,
        companyId: opts.company,
        email: user.email,
        name: user.name,
        roleId: user.role_id,
        roleName: user.role_name,
        active: user.active === 1,
      });
    });

  withDb(invite.command('list'))
    .description("List a company's invites, newest first")
    .requiredOption('--company <id>', 'company id')
    .option('--status <status>', `only invites in this state (${STATUSES.join(', ')})`)
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; status?: string; json?: boolean }) => {
      const status = opts.status?.toUpperCase();
      if (status !== undefined && !STATUSES.includes(status as InviteStatus)) {
        throw new Error(`unknown status ${opts.status}: use one of ${STATUSES.join(', ')}`);
      }
      const { rows, now } = await usingDb(opts.db, async (db) => ({
        rows: await listInvites(db, opts.company),
        now: (await companyClock(db, systemClock, opts.company)).now().toISOString(),
      }));
      const invites = rows
        .map((r) => ({
          id: r.id,
          email: r.email,
          roleId: r.role_id,
          roleName: r.role_name,
          // A pending invite past its expiry is expired even before a write stores it so.
          status: r.status === 'PENDING' && r.expires_at <= now ? 'EXPIRED' : r.status,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
          acceptedAt: r.accepted_at,
          userId: r.user_id,
        }))
        .filter((i) => status === undefined || i.status === status);
      if (opts.json) {
        output(true, { companyId: opts.company, invites });
        return;
      }
      for (const i of invites)
        process.stdout.write(`${i.status.padEnd(8)} ${i.email} (${i.roleName}) expires ${i.expiresAt}\n`);
    });
}
