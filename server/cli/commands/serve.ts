import type { Command } from 'commander';
import { serve } from '../../main.js';
import { port, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('serve'))
    .description('Run the API server (creates and seeds a demo company on an empty database)')
    .option('--port <port>', 'port to listen on (default: $PORT or 8080)', port)
    .action(async (opts: { db: string; port?: number }) => {
      await serve({ port: opts.port ?? Number(process.env.PORT ?? 8080), dbPath: opts.db });
    });
}
