// Every environment variable the server and the `finance` command read, declared once: its type,
// its default in the sandbox and in production, what it does, and whether it is a secret. At start
// `checkSettings` checks the environment against it (a bad value, or a missing required one in
// production, stops the process with one line naming the variable); `loadConfig` (config.ts) turns
// the checked values into the Config. docs/configuration.md and .env.example are generated from it
// (scripts/build-contract.ts writes and checks them), and `finance config` prints it.
// Hand-written rather than envalid or zod: the checks are a dozen small functions the Config already
// needed (TRUST_PROXY's forms, 32-byte hex keys), and the documentation columns (production
// default, secret) are not something those libraries carry.
import { distance } from 'fastest-levenshtein';
import ipaddr from 'ipaddr.js';
import { isPostgresUrl, locationProblem, withoutPassword } from './db/location.js';

type SettingGroup = 'server' | 'secrets' | 'database' | 'operations' | 'cli';

interface Setting {
  name: string;
  group: SettingGroup;
  /** As shown in the docs: `integer`, `boolean`, `hex32`, … */
  type: string;
  /** The value when unset, as text (undefined: unset). */
  default?: string;
  /** The value when unset with NODE_ENV=production, when it differs. `required` means the process refuses to start without it. */
  productionDefault?: string;
  description: string;
  secret?: boolean;
  /** How a secret's value may be shown in messages and `finance config` (a URL without its password); unset: not at all. */
  shown?: (value: string) => string;
  /** Why `value` is not acceptable; undefined when it is. Empty values count as unset. */
  check?: (value: string, env: NodeJS.ProcessEnv) => string | undefined;
}

const REQUIRED = 'required';

const wholeNumber =
  (min = 0, max = 999_999_999) =>
  (value: string) =>
    !/^[0-9]{1,9}$/.test(value) || Number(value) < min || Number(value) > max
      ? `must be a whole number from ${min} to ${max}`
      : undefined;

const oneOf =
  (...allowed: string[]) =>
  (value: string) =>
    allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;

const bool = oneOf('true', 'false');

const hex32 = (value: string) => (/^[0-9a-fA-F]{64}$/.test(value) ? undefined : 'must be 64 hex characters (32 bytes)');

const httpUrl = (value: string) => (/^https?:\/\/[^/\s]+/.test(value) ? undefined : 'must be an http(s) URL');

const redisUrl = (value: string) =>
  /^rediss?:\/\/[^\s]*$/.test(value) ? undefined : 'must be a redis:// or rediss:// URL';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** TRUST_PROXY's forms (see Config.trustProxy). */
function trustProxyError(value: string): string | undefined {
  const v = value.trim();
  if (v === '' || v === 'false' || v === 'true' || /^[0-9]{1,3}$/.test(v)) return undefined;
  for (const entry of v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = '', bits] = entry.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    const valid = ipaddr.isValid(address) && (bits === undefined || /^[0-9]{1,3}$/.test(bits));
    if (!named && !valid) return `${entry} is not an address, a CIDR range, loopback, linklocal or uniquelocal`;
  }
  return undefined;
}

/** The server secrets: required in production, generated once and kept in the database in the sandbox. */
export const SERVER_SECRETS = [
  'CURSOR_SECRET',
  'URL_SIGNING_SECRET',
  'PAN_ENCRYPTION_KEY',
  'CVV_KEY',
  'IDEMPOTENCY_ENCRYPTION_KEY',
] as const;

const sandboxSecret = 'generated once, kept in the database';

/** NODE_ENV's values: `production`, or the sandbox (`development`, `test`, unset: what tools set themselves). */
const MODES = ['production', 'development', 'test'];

/**
 * NODE_ENV decides production or the sandbox, so a value that is neither is refused rather than read
 * as the sandbox: `prodution`, `Production` or `production ` would otherwise seed demo data, print a
 * client secret and open the test helpers on the store production named.
 */
function modeError(value: string): string | undefined {
  if (MODES.includes(value)) return undefined;
  const near = value.trim().toLowerCase();
  const likely =
    MODES.find((mode) => mode === near) ??
    MODES.find((mode) => near.length >= 3 && (mode.startsWith(near) || near.startsWith(mode))) ??
    MODES.find((mode) => distance(mode, near) <= 2);
  return `must be production (or development, test or unset: the sandbox)${likely ? `; did you mean ${likely}?` : ''}`;
}

/** SANDBOX: says the sandbox is meant, which a PostgreSQL store needs; production is not the sandbox. */
function sandboxError(value: string, env: NodeJS.ProcessEnv): string | undefined {
  const production = env.NODE_ENV === 'production';
  if (value === 'true' && production) return 'true is the sandbox, refused with NODE_ENV=production';
  if (value === 'false' && !production)
    return 'false does not make production: set NODE_ENV=production (outside it, SANDBOX is true or unset)';
  return bool(value);
}

const SETTINGS: readonly Setting[] = [
  {
    name: 'NODE_ENV',
    group: 'server',
    type: '`production`, `development` or `test`',
    description:
      '`production`: no demo data, the server secrets required, JSON logs only, no sandbox helpers, no simulated card issuer. `development`, `test` or unset: the sandbox. Any other value (other case, spaces) is refused.',
    check: modeError,
  },
  {
    name: 'SANDBOX',
    group: 'server',
    type: 'boolean',
    description:
      '`true`: the sandbox on purpose. `finance serve` needs it on PostgreSQL, where the sandbox would otherwise seed an empty database with a demo company, print its client secret and open the test helpers, the simulated card issuer and `/metrics`. `true` is refused with `NODE_ENV=production`, `false` without it (it does not make production).',
    check: sandboxError,
  },
  {
    name: 'PORT',
    group: 'server',
    type: 'integer',
    default: '8080',
    description: 'Port to listen on; `0`: any free port (`finance serve --port` wins).',
    check: wholeNumber(0, 65_535),
  },
  {
    name: 'HOST',
    group: 'server',
    type: 'address',
    default: '127.0.0.1',
    description: 'Address to listen on; `0.0.0.0` in a container (`finance serve --host` wins).',
  },
  {
    name: 'WORKERS',
    group: 'server',
    type: 'integer',
    default: '1',
    description: 'Processes serving the port (node:cluster; `finance serve --workers` wins).',
    check: wholeNumber(1, 256),
  },
  {
    name: 'PUBLIC_BASE_URL',
    group: 'server',
    type: 'URL',
    description:
      'Public base URL: signed URLs, `Location` headers, the server `/openapi.json` and `/docs` name; https turns on HSTS. Unset: the host each request came to.',
    check: httpUrl,
  },
  {
    name: 'CORS_ORIGINS',
    group: 'server',
    type: 'list',
    default: 'http://localhost:*,http://127.0.0.1:*',
    productionDefault: '(none)',
    description: 'Comma-separated browser origins allowed by CORS; an entry ending in `:*` allows any port.',
  },
  {
    name: 'TRUST_PROXY',
    group: 'server',
    type: 'false, true, hops or list',
    default: 'false',
    description:
      'Which peers may name the client address in X-Forwarded-For: a number of hops, or addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`.',
    check: trustProxyError,
  },
  {
    name: 'RATE_LIMIT_PER_MINUTE',
    group: 'server',
    type: 'integer',
    default: '600',
    description: 'Requests per minute per client (token endpoint: per address); `0` turns limiting off.',
    check: wholeNumber(),
  },
  {
    name: 'RATE_LIMIT_FALLBACK_REPLICAS',
    group: 'server',
    type: 'integer',
    description:
      'With `REDIS_URL`: how many replicas share the limit. A process that cannot reach Redis counts in its memory against `RATE_LIMIT_PER_MINUTE` divided by this and by `--workers` (at least 1). Unset: it counts in the database, shared only with the processes that lost Redis too.',
    check: wholeNumber(1, 10_000),
  },
  {
    name: 'AUTH_FAILURES_PER_MINUTE',
    group: 'server',
    type: 'integer',
    default: '10',
    description: 'Failed authentications of one client id from one address per minute before 429; `0` off.',
    check: wholeNumber(),
  },
  {
    name: 'AUTH_SOURCE_FAILURES_PER_MINUTE',
    group: 'server',
    type: 'integer',
    default: '30',
    description:
      'Failed client authentications from one address per minute, whatever the client id, before 429; `0` off.',
    check: wholeNumber(),
  },
  {
    name: 'AUDIT_RETENTION_DAYS',
    group: 'server',
    type: 'integer',
    default: '400',
    description:
      'Days an audit log entry is kept (`GET /audit/v1/entries`) before the worker deletes it; at least 400.',
    check: wholeNumber(400, 36_500),
  },
  {
    name: 'CLIENT_UNUSED_EXPIRY_DAYS',
    group: 'server',
    type: 'integer',
    default: '0',
    description:
      'An API client given no token for this many days (counted from its creation when never used) is revoked by the worker; `0` off.',
    check: wholeNumber(0, 36_500),
  },
  {
    name: 'EXPORTS_PER_COMPANY',
    group: 'server',
    type: 'integer',
    default: '2',
    description: 'Statement exports one company may run at once; beyond, 429.',
    check: wholeNumber(),
  },
  {
    name: 'OVERLOAD_MAX_LAG_MS',
    group: 'server',
    type: 'integer',
    default: '0',
    productionDefault: '100',
    description: 'While the event loop runs more than this many ms behind, API requests get 503; `0` off.',
    check: wholeNumber(),
  },
  {
    name: 'OVERLOAD_MAX_IN_FLIGHT',
    group: 'server',
    type: 'integer',
    default: '0',
    productionDefault: '64',
    description:
      'Requests one process serves at once (the probes apart); one more gets 503 with `Retry-After: 1` at once instead of queueing for the store; `0` off.',
    check: wholeNumber(),
  },
  {
    name: 'ANSWER_CACHE_MB',
    group: 'server',
    type: 'integer',
    default: '16',
    description:
      "Memory per process for the statement lists' and change feeds' answers, kept by ETag and answered again while the company's statements have not changed; `0` keeps none.",
    check: wholeNumber(0, 4096),
  },
  {
    name: 'SHUTDOWN_GRACE_MS',
    group: 'server',
    type: 'integer',
    default: '30000',
    description: 'On SIGTERM/SIGINT, how long requests in flight may still run (after the drain).',
    check: wholeNumber(),
  },
  {
    name: 'SHUTDOWN_DRAIN_MS',
    group: 'server',
    type: 'integer',
    default: '0',
    productionDefault: '5000',
    description:
      'On SIGTERM/SIGINT, how long `/ready` answers 503 `draining` while requests are still served (each answer closing its connection), so a load balancer stops sending before the listener closes.',
    check: wholeNumber(0, 600_000),
  },
  {
    name: 'VALIDATE_RESPONSES',
    group: 'server',
    type: 'boolean',
    default: 'true',
    productionDefault: 'false',
    description: 'Check every response against the contract.',
    check: bool,
  },
  {
    name: 'VCN_ENABLED',
    group: 'server',
    type: 'boolean',
    default: 'true',
    description: '`false` turns the virtual card operations off.',
    check: bool,
  },
  {
    name: 'CARD_ISSUER',
    group: 'server',
    type: '`simulated` or `none`',
    default: 'simulated',
    productionDefault: 'none',
    description:
      'The card issuer behind the VCN operations. `none`: they answer 503 `vcn-provider-unavailable`. Production refuses `simulated`.',
    check: (value, env) =>
      oneOf('simulated', 'none')(value) ??
      (value === 'simulated' && env.NODE_ENV === 'production'
        ? 'the simulated issuer is not allowed with NODE_ENV=production'
        : undefined),
  },
  {
    name: 'SANDBOX_HELPERS',
    group: 'server',
    type: 'boolean',
    default: 'true',
    productionDefault: 'false',
    description: 'The sandbox test helpers and test clock (`/sandbox/v1/…`).',
    check: bool,
  },
  {
    name: 'MCP_ENDPOINT',
    group: 'server',
    type: 'boolean',
    default: 'true',
    productionDefault: 'false',
    description:
      'Serve `/mcp`: the API as MCP tools for assistants (streamable HTTP, same Bearer tokens; docs/mcp.md). Another surface to expose: off in production unless set.',
    check: bool,
  },
  {
    name: 'WEBHOOKS_ALLOW_PRIVATE',
    group: 'server',
    type: 'boolean',
    default: 'true',
    productionDefault: 'false',
    description: 'Webhook URLs may point at private, loopback and link-local addresses.',
    check: bool,
  },
  {
    name: 'DATA_DIR',
    group: 'server',
    type: 'path',
    description:
      'Folder for uploaded files. Unset: next to a SQLite file; in the database on PostgreSQL (set a shared folder to keep them out of it).',
  },
  {
    name: 'CURSOR_SECRET',
    group: 'secrets',
    type: 'hex32',
    default: sandboxSecret,
    productionDefault: REQUIRED,
    description: 'HMAC key of list page keys (nextPageStartKey) and change-feed cursors.',
    secret: true,
    check: hex32,
  },
  {
    name: 'CURSOR_SECRET_PREVIOUS',
    group: 'secrets',
    type: 'hex32',
    description:
      'The previous CURSOR_SECRET during a rotation: page keys and change-feed cursors it signed are still accepted.',
    secret: true,
    check: hex32,
  },
  {
    name: 'URL_SIGNING_SECRET',
    group: 'secrets',
    type: 'hex32',
    default: sandboxSecret,
    productionDefault: REQUIRED,
    description: 'HMAC key of signed receipt and upload URLs, the OAuth consent form and receipt authentication codes.',
    secret: true,
    check: hex32,
  },
  {
    name: 'URL_SIGNING_SECRET_PREVIOUS',
    group: 'secrets',
    type: 'hex32',
    description:
      'The previous URL_SIGNING_SECRET during a rotation: URLs and consent forms it signed are still accepted.',
    secret: true,
    check: hex32,
  },
  {
    name: 'PAN_ENCRYPTION_KEY',
    group: 'secrets',
    type: 'hex32',
    default: sandboxSecret,
    productionDefault: REQUIRED,
    description: 'AES-256-GCM key of stored card numbers.',
    secret: true,
    check: hex32,
  },
  {
    name: 'PAN_ENCRYPTION_KEY_PREVIOUS',
    group: 'secrets',
    type: 'hex32',
    description:
      'The previous PAN_ENCRYPTION_KEY during a rotation: card numbers it sealed still open until `finance secrets reencrypt` re-seals them.',
    secret: true,
    check: hex32,
  },
  {
    name: 'CVV_KEY',
    group: 'secrets',
    type: 'hex32',
    default: sandboxSecret,
    productionDefault: REQUIRED,
    description: 'HMAC key from which CVVs are derived.',
    secret: true,
    check: hex32,
  },
  {
    name: 'IDEMPOTENCY_ENCRYPTION_KEY',
    group: 'secrets',
    type: 'hex32',
    default: sandboxSecret,
    productionDefault: REQUIRED,
    description: 'AES-256-GCM key of stored Idempotency-Key responses.',
    secret: true,
    check: hex32,
  },
  {
    name: 'IDEMPOTENCY_ENCRYPTION_KEY_PREVIOUS',
    group: 'secrets',
    type: 'hex32',
    description:
      'The previous IDEMPOTENCY_ENCRYPTION_KEY during a rotation: responses it sealed still replay (they expire within 24 hours).',
    secret: true,
    check: hex32,
  },
  {
    name: 'DATABASE_URL',
    group: 'database',
    type: 'path or URL',
    default: './data/finance.sqlite',
    productionDefault: REQUIRED,
    description:
      'The store when `--db` is not given: a `postgres://user:password@host:5432/database` URL (it must name its database) or a SQLite file path. Production never falls back to the default file.',
    secret: true,
    shown: withoutPassword,
    check: locationProblem,
  },
  {
    name: 'DATABASE_START_TIMEOUT_MS',
    group: 'database',
    type: 'integer',
    default: '30000',
    description:
      'At start, how long a database that cannot be reached is retried (with backoff, each attempt logged at warn) before the start fails; `0`: one attempt.',
    check: wholeNumber(),
  },
  {
    name: 'PG_POOL_SIZE',
    group: 'database',
    type: 'integer',
    default: '10',
    description: 'PostgreSQL connections per process.',
    check: wholeNumber(1, 1000),
  },
  {
    name: 'PG_CONNECT_TIMEOUT_MS',
    group: 'database',
    type: 'integer',
    default: '5000',
    description: 'How long a query waits for a PostgreSQL connection before 503.',
    check: wholeNumber(1),
  },
  {
    name: 'PG_KEEP_VERSION_MS',
    group: 'database',
    type: 'integer',
    default: '1000',
    description:
      "How long a process keeps a company's statement data version between polls (PostgreSQL; changes are heard at once, this bounds what only time changes); 0: nothing kept between requests and no LISTEN connection (PgBouncer in transaction mode).",
    check: wholeNumber(),
  },
  {
    name: 'REDIS_URL',
    group: 'database',
    type: 'URL',
    description: 'Rate-limit counters in Redis (unset: in the database).',
    secret: true,
    shown: withoutPassword,
    check: redisUrl,
  },
  {
    name: 'LOG_LEVEL',
    group: 'operations',
    type: LOG_LEVELS.join(', '),
    default: 'info',
    description: 'pino level of the JSON log lines on stdout.',
    check: oneOf(...LOG_LEVELS),
  },
  {
    name: 'METRICS_TOKEN',
    group: 'operations',
    type: 'string',
    description: 'Bearer token `/metrics` requires. Production without it serves no `/metrics` on the API port.',
    secret: true,
  },
  {
    name: 'METRICS_PORT',
    group: 'operations',
    type: 'integer',
    description: 'Serve `/metrics` only on this port, not on the API port.',
    check: wholeNumber(1, 65_535),
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: 'operations',
    type: 'URL',
    description: 'Export traces over OTLP; unset loads no tracing at all (the SDK reads its other `OTEL_*` variables).',
    check: httpUrl,
  },
  {
    name: 'OTEL_SERVICE_NAME',
    group: 'operations',
    type: 'string',
    default: 'company-finance-service',
    description: 'The service name on exported traces.',
  },
  {
    name: 'FINANCE_BASE_URL',
    group: 'cli',
    type: 'URL',
    default: 'http://localhost:8080',
    description: 'The API the `finance` commands that call it (`vcn`, `invite`, `events`, `export`, …) talk to.',
  },
  {
    name: 'FINANCE_CLIENT_ID',
    group: 'cli',
    type: 'string',
    description: 'The API client those commands authenticate as.',
  },
  {
    name: 'FINANCE_CLIENT_SECRET',
    group: 'cli',
    type: 'string',
    description: 'Its secret.',
    secret: true,
  },
  {
    name: 'FINANCE_MCP_TOOLS',
    group: 'cli',
    type: 'string',
    description:
      '`finance mcp`: groups and tools to add besides the default set, comma-separated (`cards,webhooks`), `*` as wildcard, `all` for every group, `-name` removes (docs/mcp.md); `--tools` wins.',
  },
  {
    name: 'XDG_CONFIG_HOME',
    group: 'cli',
    type: 'path',
    default: '~/.config',
    description: '`finance events listen` keeps its signing secrets in `company-finance/` under it.',
  },
];

/** The name of every variable this service reads (unknownSettings: a near miss of one is named). */
export const SETTING_NAMES: readonly string[] = SETTINGS.map((s) => s.name);

/** Settings that stop the start: the message names every variable concerned, in one line. */
class SettingsError extends Error {
  override name = 'SettingsError';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const given = (env: NodeJS.ProcessEnv, name: string) => {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
};

const shownValue = (setting: Setting, value: string) =>
  setting.secret ? (setting.shown ? setting.shown(value) : undefined) : value;

/**
 * Every reason the environment is refused, each naming its variable: every bad value and (with
 * `required`, at a server's start) in production the missing required ones.
 */
export function settingsProblems(env: NodeJS.ProcessEnv, { required = true } = {}): string[] {
  const problems: string[] = [];
  for (const setting of SETTINGS) {
    const value = given(env, setting.name);
    if (value === undefined || !setting.check) continue;
    const problem = setting.check(value, env);
    if (!problem) continue;
    const shown = shownValue(setting, value);
    problems.push(`${setting.name}: ${problem}${shown === undefined ? '' : ` (got ${JSON.stringify(shown)})`}`);
  }
  if (!required) return problems;
  if (env.NODE_ENV !== 'production') {
    const location = given(env, 'DATABASE_URL');
    const mode = given(env, 'NODE_ENV');
    // A NODE_ENV that is no mode is named above; which mode was meant is not known.
    const sandbox = mode === undefined || MODES.includes(mode);
    if (sandbox && location && isPostgresUrl(location) && env.SANDBOX !== 'true')
      problems.push(
        `DATABASE_URL: the sandbox (NODE_ENV ${mode ? `is ${mode}` : 'unset'}) runs on PostgreSQL only with SANDBOX=true: it seeds an empty database with demo data and prints its client secret; set NODE_ENV=production for production`,
      );
    return problems;
  }
  if (given(env, 'DATABASE_URL') === undefined)
    problems.push(
      'DATABASE_URL: NODE_ENV=production needs the store named on purpose: a postgres://user:password@host:5432/database URL, or a SQLite file path given as DATABASE_URL or --db',
    );
  const missing = SETTINGS.filter(
    (s) => s.group === 'secrets' && s.productionDefault === REQUIRED && given(env, s.name) === undefined,
  );
  if (missing.length > 0)
    problems.push(
      `NODE_ENV=production needs ${missing.map((s) => s.name).join(', ')}; \`finance secrets generate\` prints a block of them`,
    );
  return problems;
}

/** A NODE_ENV that is no mode, named as settingsProblems names it: refused by every command that opens a store. */
export const modeProblem = (env: NodeJS.ProcessEnv): string | undefined =>
  settingsProblems({ NODE_ENV: env.NODE_ENV }, { required: false })[0];

/** Throws a SettingsError naming every bad value (see settingsProblems). */
export function checkSettings(env: NodeJS.ProcessEnv, options: { required?: boolean } = {}): void {
  const problems = settingsProblems(env, options);
  if (problems.length > 0) throw new SettingsError(problems);
}

/** Each setting with its effective value (secrets `[redacted]`, URLs without their password), where it came from and what it does. */
export function effectiveSettings(env: NodeJS.ProcessEnv) {
  const production = env.NODE_ENV === 'production';
  return SETTINGS.filter((s) => s.group !== 'cli').map((s) => {
    const value = given(env, s.name);
    const fallback = production && s.productionDefault !== undefined ? s.productionDefault : s.default;
    return {
      name: s.name,
      value: value === undefined ? (fallback ?? null) : (shownValue(s, value) ?? '[redacted]'),
      source: value === undefined ? 'default' : 'environment',
      description: s.description.replace(/`/g, ''),
    };
  });
}

const GROUPS: Record<SettingGroup, string> = {
  server: 'Server',
  secrets: 'Server secrets',
  database: 'Database and Redis',
  operations: 'Logs, metrics and tracing',
  cli: 'The `finance` command as an API client',
};

const cell = (text: string | undefined) => (text === undefined ? 'unset' : `\`${text}\``).replace(/\|/g, '\\|');

/** docs/configuration.md. */
export function configurationMarkdown(): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from server/settings.ts by `npm run build:contract`; `npm run build:check` fails when it is stale. -->',
    '',
    'Every environment variable the server and the `finance` command read. The server checks them at',
    'start: a bad value, or with `NODE_ENV=production` a missing required one, stops it with one line',
    'naming the variable. `finance config` prints the effective configuration (secrets redacted);',
    '`finance secrets generate` prints a block of fresh server secrets; `.env.example` lists them all.',
    'Empty values count as unset.',
  ];
  for (const [group, title] of Object.entries(GROUPS) as Array<[SettingGroup, string]>) {
    lines.push(
      '',
      `## ${title}`,
      '',
      '| variable | type | default | production | secret | |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const s of SETTINGS.filter((setting) => setting.group === group)) {
      const production =
        s.productionDefault === REQUIRED
          ? '**required**'
          : s.productionDefault === undefined
            ? 'same'
            : cell(s.productionDefault);
      const fallback = s.default === sandboxSecret ? sandboxSecret : cell(s.default);
      lines.push(
        `| \`${s.name}\` | ${s.type.replace(/\|/g, '\\|')} | ${fallback} | ${production} | ${s.secret ? 'yes' : ''} | ${s.description} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** .env.example: every server setting, commented out at its default. */
export function envExample(): string {
  const lines = [
    '# Generated from server/settings.ts (`npm run build:contract`); docs/configuration.md explains each.',
    '# `finance secrets generate` prints fresh values for the server secrets.',
  ];
  for (const s of SETTINGS.filter((setting) => setting.group !== 'cli')) {
    lines.push('', `# ${s.description.replace(/`/g, '')}`);
    const value = s.productionDefault === REQUIRED || s.secret || s.default === undefined ? '' : s.default;
    lines.push(s.productionDefault === REQUIRED ? `${s.name}=` : `# ${s.name}=${value}`);
  }
  return `${lines.join('\n')}\n`;
}
