// `finance events`: follow a company's events locally (and forward them signed), or trigger one.
import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { openStore } from '../../db/store.js';
import { EVENT_TYPES } from '../../db/event-types.js';
import { listenForEvents, triggerEvent } from '../events.js';
import { output, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  const events = program.command('events').description('Follow and trigger events (sandbox)');

  withDb(events.command('listen'))
    .description(
      "Print the company's events as they happen; with --forward-to, POST each one signed (Standard Webhooks) to a local URL",
    )
    .requiredOption('--company <id>', 'company id')
    .option('--forward-to <url>', 'receiver URL, e.g. http://localhost:3000/hooks')
    .option('--secret <whsec>', 'signing secret (default: a new one, printed at start)')
    .option('--types <list>', 'only these event types (comma-separated)')
    .action(async (opts: { db: string; company: string; forwardTo?: string; secret?: string; types?: string }) => {
      const { db, close } = await openStore(opts.db);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      try {
        process.stdout.write('Listening for events (Ctrl-C to stop)\n');
        await listenForEvents({
          db,
          companyId: opts.company,
          forwardTo: opts.forwardTo,
          secret: opts.secret,
          types: opts.types
            ?.split(',')
            .map((t) => t.trim())
            .filter(Boolean),
          signal: stop.signal,
          print: (line) => process.stdout.write(`${line}\n`),
        });
      } finally {
        await close();
      }
    });

  withDb(events.command('trigger'))
    .description(
      `Write a realistic event of a type for the company; its webhook endpoints receive it (${EVENT_TYPES.join(', ')})`,
    )
    .argument('<type>', 'event type, e.g. banking_transaction.updated')
    .requiredOption('--company <id>', 'company id')
    .option('--json', 'print one JSON document')
    .action(async (type: string, opts: { db: string; company: string; json?: boolean }) => {
      const row = await usingDb(opts.db, (db) => triggerEvent(db, systemClock, opts.company, type));
      output(Boolean(opts.json), { id: row.id, type: row.type, createdAt: row.created_at, companyId: row.company_id });
    });
}
