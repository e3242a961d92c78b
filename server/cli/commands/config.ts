import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { SERVER_SECRETS, checkSettings, effectiveSettings } from '../../settings.js';
import { output } from '../options.js';

export function register(program: Command): void {
  program
    .command('config')
    .description(
      'Print the effective configuration of this environment (secrets redacted), checked as `serve` checks it',
    )
    .option('--json', 'print one JSON document')
    .action((opts: { json?: boolean }) => {
      const settings = effectiveSettings(process.env);
      let problem: string | undefined;
      try {
        checkSettings(process.env);
      } catch (err) {
        problem = (err as Error).message;
      }
      if (opts.json) return output(true, { settings, ...(problem ? { problem } : {}) });
      const width = Math.max(...settings.map((s) => s.name.length));
      for (const s of settings)
        process.stdout.write(
          `${s.name.padEnd(width)}  ${s.value ?? '(unset)'}${s.source === 'default' ? '  (default)' : ''}\n`,
        );
      if (problem) process.stdout.write(`\nserve would refuse to start: ${problem}\n`);
    });
  program
    .command('secrets')
    .description('Server secrets')
    .command('generate')
    .description('Print a block of fresh server secrets (KEY=value lines for an env file or a secret store)')
    .action(() => {
      for (const name of SERVER_SECRETS) process.stdout.write(`${name}=${randomBytes(32).toString('hex')}\n`);
    });
}
