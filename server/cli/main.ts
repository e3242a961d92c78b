// `finance`: the sandbox command (serve, migrate, backup, company, client, seed, ingest, invite, vcn, events, export).
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
import { markRequiredOptions } from './options.js';

const program = new Command('finance')
  .description('Company Finance Service: run the API server and manage sandbox data')
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode));

for (const add of [serve, migrate, backup, company, client, seed, ingest, invite, vcn, events, exporter]) add(program);
markRequiredOptions(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`finance: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
