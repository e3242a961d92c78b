// `finance`: the sandbox command (serve, migrate, backup, company, client, seed, ingest, invite, vcn, events, export,
// config, secrets, mcp).
// Every command but `serve`, `migrate` and `company create` needs an existing `--db`.
import { Command } from 'commander';
import { register as serve } from './commands/serve.js';
import { register as company } from './commands/company.js';
import { register as client } from './commands/client.js';
import { register as seed } from './commands/seed.js';
import { register as ingest } from './commands/ingest.js';
import { register as invite } from './commands/invite.js';
import { register as vcn } from './commands/vcn.js';
import { register as migrate } from './commands/migrate.js';
import { register as events } from './commands/events.js';
import { register as backup } from './commands/backup.js';
import { register as exporter } from './commands/export.js';
import { register as config } from './commands/config.js';
import { register as mcp } from './commands/mcp.js';
import { markRequiredOptions } from './options.js';

const program = new Command('finance')
  .description('Company Finance Service: run the API server and manage sandbox data')
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode));

for (const add of [serve, migrate, backup, company, client, seed, ingest, invite, vcn, events, exporter, config, mcp])
  add(program);
markRequiredOptions(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  // In production every line is one JSON object (pino's shape), for the log shipper.
  process.stderr.write(
    process.env.NODE_ENV === 'production'
      ? `${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: `finance: ${message}` })}\n`
      : `finance: ${message}\n`,
  );
  process.exit(1);
}
