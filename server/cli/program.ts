// The `finance` command's tree (serve, migrate, backup, company, client, apps, seed, ingest, invite, cards, vcn, events, export,
// config, secrets, mcp, mark-restored), built fresh on each call with the command being run only: `main.ts` parses the
// process's arguments with it, and the test suite runs commands in its own process with it where a separate process
// proves nothing.
// Every command but `serve`, `company create` and `seed --demo` needs an existing `--db`; only `migrate` and `serve`
// change its schema.
import { Command, type CommanderError } from 'commander';

/**
 * The command modules, in the order `--help` lists them, each with the names of the commands it
 * registers. Only the module of the command being run is loaded (each brings the stores and areas its
 * commands use): `finance company list` does not load the server, nor `finance serve` the exporters.
 */
const COMMANDS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<{ register(program: Command): void }> }> =
  [
    { names: ['serve'], load: () => import('./commands/serve.js') },
    { names: ['migrate'], load: () => import('./commands/migrate.js') },
    { names: ['backup', 'mark-restored'], load: () => import('./commands/backup.js') },
    { names: ['company'], load: () => import('./commands/company.js') },
    { names: ['client'], load: () => import('./commands/client.js') },
    { names: ['apps'], load: () => import('./commands/apps.js') },
    { names: ['seed'], load: () => import('./commands/seed.js') },
    { names: ['ingest'], load: () => import('./commands/ingest.js') },
    { names: ['invite'], load: () => import('./commands/invite.js') },
    { names: ['cards'], load: () => import('./commands/cards.js') },
    { names: ['vcn'], load: () => import('./commands/vcn.js') },
    { names: ['events'], load: () => import('./commands/events.js') },
    { names: ['export'], load: () => import('./commands/export.js') },
    { names: ['config', 'secrets'], load: () => import('./commands/config.js') },
    { names: ['mcp'], load: () => import('./commands/mcp.js') },
  ];

/**
 * The tree for running `command` (the first argument): that command alone when it is one of ours,
 * otherwise every command (`--help`, `help`, a mistyped name and its suggestion). `exit` is called
 * where commander ends a command (help, a bad option); the subcommands inherit it.
 */
export async function financeProgram(exit: (err: CommanderError) => never, command?: string): Promise<Command> {
  const program = new Command('finance')
    .description('Company Finance Service: run the API server and manage sandbox data')
    .showHelpAfterError()
    .exitOverride(exit);
  const chosen = COMMANDS.filter((c) => command !== undefined && c.names.includes(command));
  const modules = await Promise.all((chosen.length > 0 ? chosen : COMMANDS).map((c) => c.load()));
  for (const module of modules) module.register(program);
  markRequiredOptions(program);
  return program;
}

/** Marks every mandatory option of the program's commands "(required)" in `--help`. */
function markRequiredOptions(command: Command): void {
  for (const option of command.options) {
    if (option.mandatory && !option.description.endsWith('(required)'))
      option.description = `${option.description} (required)`;
  }
  command.commands.forEach(markRequiredOptions);
}

/** The line a failed command ends with on stderr: in production one JSON object (pino's shape), for the log shipper. */
export function failureLine(err: unknown, env: NodeJS.ProcessEnv, now: number): string {
  const message = err instanceof Error ? err.message : String(err);
  return env.NODE_ENV === 'production'
    ? `${JSON.stringify({ level: 60, time: now, pid: process.pid, msg: `finance: ${message}` })}\n`
    : `finance: ${message}\n`;
}
