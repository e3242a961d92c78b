import type { Command } from 'commander';
import { serve } from '../../main.js';
import { port, positiveInt, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('serve'))
    .description('Run the API server (creates and seeds a demo company on an empty database)')
    .option('--port <port>', 'port to listen on (default: $PORT or 8080)', port)
    .option('--workers <n>', 'processes serving the port (default: $WORKERS or 1)', positiveInt)
    .action(async (opts: { db: string; port?: number; workers?: number }) => {
      const workers = Math.max(1, opts.workers ?? Number(process.env.WORKERS ?? 1));
      await serve({ port: opts.port ?? Number(process.env.PORT ?? 8080), dbPath: opts.db, workers });
    });
}
