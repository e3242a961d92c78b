import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { output, parseScopes, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  const apps = program.command('apps').description('Apps acting for companies (authorization code with PKCE)');
  withDb(apps.command('approval-code'))
    .description(
      "Make a one-time approval code (10 minutes, single use) with which the company's administrator approves an app on the consent page; shown only now",
    )
    .requiredOption('--company <id>', 'company id')
    .option(
      '--scopes <scopes>',
      'comma-separated scopes an app approved with it may get at most (default: any)',
      parseScopes,
    )
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; scopes?: string[]; json?: boolean }) => {
      // The apps area (its consent pages bring Express) loads for this command only.
      const { createApprovalCode } = await import('../../areas/apps/public.js');
      const made = await usingDb(opts.db, (db) =>
        createApprovalCode(db, systemClock, { companyId: opts.company, scopes: opts.scopes, createdBy: 'cli' }),
      );
      output(Boolean(opts.json), { ...made, scopes: made.scopes ?? 'any' });
    });
}
