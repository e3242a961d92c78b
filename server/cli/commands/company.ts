import { CLI_ACTOR } from '../../areas/audit/public.js';
import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { ALL_SCOPES, createClient, createCompany, defaultScopes, listCompanies } from '../../areas/auth/store.js';
import { sandboxHelpersEnabled } from '../../config.js';
import { nonEmptyName, output, parseScopes, timeZone, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  const company = program.command('company').description('Manage companies');
  withDb(company.command('create'))
    .description('Create a company and its first API client')
    .requiredOption('--name <name>', 'company name', nonEmptyName)
    .option(
      '--scopes <scopes>',
      `comma-separated scopes of the first client (${ALL_SCOPES.join(', ')}; default: all, without sandbox:write in production)`,
      parseScopes,
      defaultScopes(sandboxHelpersEnabled(process.env)),
    )
    .option('--time-zone <zone>', 'IANA time zone of the company', timeZone, 'America/Sao_Paulo')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; name: string; scopes: string[]; timeZone: string; json?: boolean }) => {
      const result = await usingDb(
        opts.db,
        async (db) => {
          const companyId = await createCompany(db, systemClock, { name: opts.name, timeZone: opts.timeZone });
          return createClient(db, systemClock, { companyId, scopes: opts.scopes }, { actor: CLI_ACTOR });
        },
        { create: true },
      );
      output(Boolean(opts.json), { ...result });
    });
  withDb(company.command('list'))
    .description('List the companies of the database, with their active API clients')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; json?: boolean }) => {
      const companies = await usingDb(opts.db, (db) => listCompanies(db));
      if (opts.json) return output(true, { companies });
      if (companies.length === 0) process.stdout.write('no companies\n');
      for (const c of companies)
        process.stdout.write(`${c.companyId}  ${c.name}  (${c.timeZone}, ${c.activeClients} active client(s))\n`);
    });
}
