import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { ALL_SCOPES, createClient, listClients, revokeClient, rotateClientSecret } from '../../areas/auth/store.js';
import { CLI_ACTOR } from '../../areas/audit/public.js';
import { duration, output, parseScopes, usingDb, withDb } from '../options.js';

/** What the command line changes is recorded in the company's audit log with the actor `cli`. */
const byCli = { actor: CLI_ACTOR };

export function register(program: Command): void {
  const client = program.command('client').description('Manage API clients');
  withDb(client.command('create'))
    .description('Create another API client of a company')
    .requiredOption('--company <id>', 'company id')
    .requiredOption('--scopes <scopes>', `comma-separated scopes (${ALL_SCOPES.join(', ')})`, parseScopes)
    .option('--name <name>', 'what the client is for')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; scopes: string[]; name?: string; json?: boolean }) => {
      const result = await usingDb(opts.db, (db) =>
        createClient(db, systemClock, { companyId: opts.company, scopes: opts.scopes, name: opts.name }, byCli),
      );
      output(Boolean(opts.json), { ...result });
    });
  withDb(client.command('revoke'))
    .description('Revoke an API client and every token issued to it')
    .requiredOption('--client <id>', 'client id')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; client: string; json?: boolean }) => {
      await usingDb(opts.db, (db) => revokeClient(db, systemClock, opts.client, byCli));
      output(Boolean(opts.json), { clientId: opts.client, revoked: true });
    });
  withDb(client.command('list'))
    .description('List API clients (never their secrets)')
    .option('--company <id>', 'only the clients of this company')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company?: string; json?: boolean }) => {
      const clients = await usingDb(opts.db, (db) => listClients(db, opts.company));
      if (opts.json) return output(true, { clients });
      if (clients.length === 0) process.stdout.write('no clients\n');
      for (const c of clients) {
        const grace = c.previousSecretExpiresAt ? `  previous secret until ${c.previousSecretExpiresAt}` : '';
        process.stdout.write(
          `${c.clientId}  company ${c.companyId}  ${c.revokedAt ? `revoked ${c.revokedAt}` : 'active'}  last used ${c.lastUsedAt ?? 'never'}  scopes ${c.scopes.join(',')}${grace}\n`,
        );
      }
    });
  withDb(client.command('rotate'))
    .description(
      'Give an API client a new secret; the old secret and its tokens stop working at once, or when --grace ends',
    )
    .requiredOption('--client <id>', 'client id')
    .option(
      '--grace <duration>',
      'keep the old secret working this long (e.g. 30m, 24h, 7d; tokens it gets end with the grace); default none',
      duration,
      0,
    )
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; client: string; grace: number; json?: boolean }) => {
      const { clientSecret, graceEndsAt } = await usingDb(opts.db, async (db) => {
        const found = (await listClients(db)).find((c) => c.clientId === opts.client);
        if (!found) throw new Error(`no client ${opts.client} (see \`finance client list\`)`);
        if (found.revokedAt)
          throw new Error(`client ${opts.client} is revoked; create a new one with \`finance client create\``);
        return rotateClientSecret(db, opts.client, { clock: systemClock, graceSeconds: opts.grace, by: byCli });
      });
      output(Boolean(opts.json), { clientId: opts.client, clientSecret, previousSecretExpiresAt: graceEndsAt });
    });
}
