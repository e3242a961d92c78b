import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { SERVER_SECRETS, checkSettings, effectiveSettings } from '../../settings.js';
import { output, usingDb, withDb } from '../options.js';
import { loadConfig } from '../../config.js';
import { resolveSecrets } from '../../areas/auth/server-secrets.js';
import { reencryptPans } from '../../areas/vcn/store/reencrypt.js';

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
  const secrets = program.command('secrets').description('Server secrets');
  withDb(secrets.command('reencrypt'))
    .description(
      'After a PAN_ENCRYPTION_KEY rotation: re-seal every stored card number with PAN_ENCRYPTION_KEY (opening it with PAN_ENCRYPTION_KEY_PREVIOUS)',
    )
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; json?: boolean }) => {
      const base = loadConfig(process.env);
      const counts = await usingDb(opts.db, async (db) =>
        reencryptPans(db, await resolveSecrets(db, process.env, base.secrets)),
      );
      output(Boolean(opts.json), { ...counts });
    });
  secrets
    .command('generate')
    .description('Print a block of fresh server secrets (KEY=value lines for an env file or a secret store)')
    .action(() => {
      for (const name of SERVER_SECRETS) process.stdout.write(`${name}=${randomBytes(32).toString('hex')}\n`);
    });
}
