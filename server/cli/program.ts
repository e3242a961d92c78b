// The `finance` command's tree (serve, migrate, backup, company, client, apps, seed, ingest, invite, cards, vcn, events, export,
// config, secrets, mcp, mark-restored), built fresh on each call: `main.ts` parses the process's arguments with it, and the
// test suite runs commands in its own process with it where a separate process proves nothing.
// Every command but `serve`, `migrate` and `company create` needs an existing `--db`.
import { Command, type CommanderError } from 'commander';
import { register as serve } from './commands/serve.js';
import { register as company } from './commands/company.js';
import { register as client } from './commands/client.js';
import { register as seed } from './commands/seed.js';
import { register as ingest } from './commands/ingest.js';
import { register as invite } from './commands/invite.js';
import { register as vcn } from './commands/vcn.js';
import { register as cards } from './commands/cards.js';
import { register as migrate } from './commands/migrate.js';
import { register as events } from './commands/events.js';
import { register as backup } from './commands/backup.js';
import { register as exporter } from './commands/export.js';
import { register as config } from './commands/config.js';
import { register as mcp } from './commands/mcp.js';
import { register as apps } from './commands/apps.js';
import { markRequiredOptions } from './options.js';

/** `exit` is called where commander ends a command (help, a bad option); the subcommands inherit it. */
export function financeProgram(exit: (err: CommanderError) => never): Command {
  const program = new Command('finance')
    .description('Company Finance Service: run the API server and manage sandbox data')
    .showHelpAfterError()
    .exitOverride(exit);
  for (const add of [
    serve,
    migrate,
    backup,
    company,
    client,
    apps,
    seed,
    ingest,
    invite,
    cards,
    vcn,
    events,
    exporter,
    config,
    mcp,
  ])
    add(program);
  markRequiredOptions(program);
  return program;
}

/** The line a failed command ends with on stderr: in production one JSON object (pino's shape), for the log shipper. */
export function failureLine(err: unknown, env: NodeJS.ProcessEnv, now: number): string {
  const message = err instanceof Error ? err.message : String(err);
  return env.NODE_ENV === 'production'
    ? `${JSON.stringify({ level: 60, time: now, pid: process.pid, msg: `finance: ${message}` })}\n`
    : `finance: ${message}\n`;
}
