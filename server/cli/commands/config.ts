import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { SERVER_SECRETS, effectiveSettings, settingsProblems } from '../../settings.js';
import { unknownSettings } from '../../settings-typos.js';
import { output, usingDb, withDb } from '../options.js';
import { loadConfig } from '../../config.js';
import { resolveSecrets } from '../../areas/auth/server-secrets.js';
import { reencryptPans } from '../../areas/vcn/store/reencrypt.js';

export function register(program: Command): void {
  program
    .command('config')
    .description(
      'Print the effective configuration of this environment (secrets redacted, URLs without their password), checked as `serve` checks it; exits 1 when `serve` would refuse to start',
    )
    .option('--json', 'print one JSON document')
    .option(
      '--check',
      'print only what `serve` would refuse and the unknown variables (a deploy gate: exit 1 when it would refuse)',
    )
    .option('--explain', "print each setting's description")
    .action((opts: { json?: boolean; check?: boolean; explain?: boolean }) => {
      const settings = effectiveSettings(process.env);
      const problems = settingsProblems(process.env);
      const warnings = unknownSettings(process.env);
      if (problems.length > 0) process.exitCode = 1;
      if (opts.json) {
        const shown = opts.explain ? settings : settings.map(({ description: _, ...s }) => s);
        return output(true, {
          ...(opts.check ? {} : { settings: shown }),
          ok: problems.length === 0,
          problems,
          warnings,
        });
      }
      const width = Math.max(...settings.map((s) => s.name.length));
      for (const s of opts.check ? [] : settings) {
        process.stdout.write(
          `${s.name.padEnd(width)}  ${s.value ?? '(unset)'}${s.source === 'default' ? '  (default)' : ''}\n`,
        );
        if (opts.explain) process.stdout.write(`${''.padEnd(width)}  ${s.description}\n`);
      }
      for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
      if (problems.length > 0)
        process.stdout.write(`serve would refuse to start:\n${problems.map((p) => `  ${p}\n`).join('')}`);
      else if (opts.check) process.stdout.write('configuration ok: serve would start\n');
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
