// What the `finance` commands that work over the API share: the client built from client
// credentials (`--base-url`, `--client-id`, `--client-secret`, else `FINANCE_BASE_URL`,
// `FINANCE_CLIENT_ID`, `FINANCE_CLIENT_SECRET`), and the signing secret `events listen` keeps per
// machine and base URL, so a receiver configured once keeps verifying across restarts.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { createFinanceClient, type FinanceClient } from '@company-finance/client';
import { newWebhookSecret } from '../areas/webhooks/store.js';

export interface ApiOptions {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
}

/** Adds `--base-url`, `--client-id` and `--client-secret` (each defaulting to its FINANCE_* variable). */
export const withApi = (command: Command) =>
  command
    .option('--base-url <url>', 'API base URL (default: $FINANCE_BASE_URL, else http://localhost:8080)')
    .option('--client-id <id>', 'client id (default: $FINANCE_CLIENT_ID)')
    .option('--client-secret <secret>', 'client secret (default: $FINANCE_CLIENT_SECRET)');

interface ApiSession {
  baseUrl: string;
  api: FinanceClient;
}

/** The typed client for the options and environment; fails naming what is missing. */
export function apiSession(options: ApiOptions, env: NodeJS.ProcessEnv = process.env): ApiSession {
  const baseUrl = (options.baseUrl ?? env.FINANCE_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  const clientId = options.clientId ?? env.FINANCE_CLIENT_ID;
  const clientSecret = options.clientSecret ?? env.FINANCE_CLIENT_SECRET;
  const missing = [
    ...(clientId ? [] : ['--client-id (or FINANCE_CLIENT_ID)']),
    ...(clientSecret ? [] : ['--client-secret (or FINANCE_CLIENT_SECRET)']),
  ];
  if (missing.length > 0) {
    throw new Error(
      `give the client credentials: ${missing.join(' and ')}; \`npm start\` prints the sandbox's, \`finance client create\` makes more`,
    );
  }
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new Error(`--base-url must be an http(s) URL (got ${baseUrl})`);
  return { baseUrl, api: createFinanceClient({ baseUrl, clientId: clientId!, clientSecret: clientSecret! }) };
}

/** Where the per-machine settings live: `$XDG_CONFIG_HOME/company-finance`, else `~/.config/company-finance`. */
const configDir = (env: NodeJS.ProcessEnv = process.env) =>
  join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'company-finance');

/** The signing secret of `events listen` for this base URL: made once, then read back (file mode 0600). */
export function listenSecret(baseUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const file = join(configDir(env), 'listen-secrets.json');
  let secrets: Record<string, string> = {};
  try {
    secrets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  const known = secrets[baseUrl];
  if (typeof known === 'string' && known.startsWith('whsec_')) return known;
  const secret = newWebhookSecret();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ ...secrets, [baseUrl]: secret }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
