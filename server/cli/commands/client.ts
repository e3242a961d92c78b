import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { ALL_SCOPES, createClient, revokeClient } from '../../areas/auth/store.js';
import { output, parseScopes, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  const client = program.command('client').description('Manage API clients');
  withDb(client.command('create'))
    .description('Create another API client of a company')
    .requiredOption('--company <id>', 'company id')
    .requiredOption('--scopes <scopes>', `comma-separated scopes (${ALL_SCOPES.join(', ')})`, parseScopes)
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; scopes: string[]; json?: boolean }) => {
      const result = await usingDb(opts.db, (db) => createClient(db, systemClock, { companyId: opts.company, scopes: opts.scopes }));
      output(Boolean(opts.json), { ...result });
    });
  withDb(client.command('revoke'))
    .description('Revoke an API client and every token issued to it')
    .requiredOption('--client <id>', 'client id')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; client: string; json?: boolean }) => {
      await usingDb(opts.db, (db) => revokeClient(db, systemClock, opts.client));
      output(Boolean(opts.json), { clientId: opts.client, revoked: true });
    });
}
