import type { Command } from 'commander';
import { host, port, positiveInt, withDb } from '../options.js';
import { checkSettings } from '../../settings.js';
import { unknownSettings } from '../../settings-typos.js';
import { warnLine } from '../../lib/warn.js';
import { stopWithNpmParent } from '../npm-parent.js';

export function register(program: Command): void {
  withDb(program.command('serve'), { checksSettings: true })
    .description(
      'Run the API server (the sandbox creates and seeds a demo company on an empty database; production starts empty)',
    )
    .option('--port <port>', 'port to listen on (default: $PORT or 8080)', port)
    .option(
      '--host <address>',
      'address to listen on (default: $HOST or 127.0.0.1, this machine only; 0.0.0.0 in a container)',
      host,
    )
    .option('--workers <n>', 'processes serving the port (default: $WORKERS or 1)', positiveInt)
    .action(async (opts: { db: string; port?: number; host?: string; workers?: number }, command: Command) => {
      const parent = process.ppid;
      // Names every bad PORT, WORKERS, … or production's missing store and secrets before anything
      // starts; a `--db` given counts as the DATABASE_URL it replaces.
      const explicitDb = command.getOptionValueSource('db') === 'cli';
      checkSettings(explicitDb ? { ...process.env, DATABASE_URL: opts.db } : process.env);
      for (const warning of unknownSettings(process.env)) warnLine(warning);
      const workers = Math.max(1, opts.workers ?? Number(process.env.WORKERS || 1));
      // The server's modules load for this command only, not for every `finance` command.
      const { DEFAULT_HOST, serve } = await import('../../main.js');
      const address = opts.host ?? (process.env.HOST ? host(process.env.HOST) : DEFAULT_HOST);
      await serve({ port: opts.port ?? Number(process.env.PORT || 8080), host: address, dbPath: opts.db, workers });
      // Watched once serve() handles SIGTERM: a parent gone during the start stops it then.
      stopWithNpmParent(parent);
    });
}
