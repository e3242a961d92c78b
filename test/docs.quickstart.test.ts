// The quick starts run as written: the README's curl lines and TypeScript snippet, and every code
// block of the client README, are extracted from the Markdown, type-checked where TypeScript, and
// run against a fresh sandbox (`finance serve` on an empty database, with the demo credentials it prints).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenSecret } from '../server/cli/api-session.js';
import { freePort } from './support/ports.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quickstart-'));
let port = 0;
let sandbox: ChildProcess;
let env: NodeJS.ProcessEnv;

/** The fenced blocks of `lang` in a Markdown file, in order. */
const blocks = (file: string, lang: string, after = '') => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const from = after ? text.indexOf(after) : 0;
  return [...text.slice(from).matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
};
const onThisSandbox = (source: string) => source.replaceAll('http://localhost:8080', `http://localhost:${port}`);

beforeAll(async () => {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  port = await freePort();
  sandbox = spawn(
    process.execPath,
    ['bin/finance.js', 'serve', '--db', join(dir, 'finance.sqlite'), '--port', String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    },
  );
  const banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    sandbox.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('client_secret')) resolve(out);
    });
    sandbox.once('exit', (code) => reject(new Error(`finance serve exited with ${code}: ${out}`)));
  });
  env = {
    ...process.env,
    CLIENT_ID: /client_id:\s+(\S+)/.exec(banner)![1],
    CLIENT_SECRET: /client_secret:\s+(\S+)/.exec(banner)![1],
  };
}, 120_000);
afterAll(async () => {
  if (sandbox.exitCode === null) {
    const exited = new Promise((resolve) => sandbox.once('exit', resolve));
    sandbox.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('README quick start', () => {
  it('when the curl lines are run as written, then they print five banking transactions', async () => {
    const [script] = blocks('README.md', 'sh', 'Then:');
    // The first line is the reader's own step: export the credentials npm start printed.
    const lines = script!.split('\n').filter((line) => !line.startsWith('export CLIENT_ID='));
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', onThisSandbox(lines.join('\n'))], { env });
    expect((JSON.parse(stdout) as { transactions: unknown[] }).transactions).toHaveLength(5);
  }, 60_000);

  it('when the TypeScript snippet is run, then it lists processed transactions', async () => {
    const [snippet] = blocks('README.md', 'ts', '## Client');
    const file = join(ROOT, 'dist', 'quickstart-readme.ts');
    writeFileSync(
      file,
      `const clientId = process.env.CLIENT_ID!;\nconst clientSecret = process.env.CLIENT_SECRET!;\n${onThisSandbox(snippet!)}`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env, cwd: ROOT });
    expect(stdout.trim().split('\n').length).toBeGreaterThan(0);
  }, 60_000);
});

/** The client README's TypeScript snippets as files that run: each a module, the client it assumes set up. */
const snippets = {
  /** A section's snippet after the client it assumes (`finance`), run in SNIPPET_DIR. */
  withClient(section: string, name: string): string {
    const [snippet] = blocks('client/README.md', 'ts', section);
    const setup = [
      "import { createFinanceClient } from '@company-finance/client';",
      'process.chdir(process.env.SNIPPET_DIR!);',
      `const finance = createFinanceClient({ baseUrl: 'http://localhost:${port}', clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! });`,
    ];
    const imports = snippet!.split('\n').filter((line) => line.startsWith('import '));
    const body = snippet!.split('\n').filter((line) => !line.startsWith('import '));
    return written(name, [...imports, ...setup, ...body, 'export {};', ''].join('\n'));
  },
  exports: () => snippets.withClient('## Exports', 'exports-client'),
  sandbox: () => snippets.withClient('## Sandbox helpers', 'sandbox-client'),
  quickStart: () => {
    const [snippet] = blocks('client/README.md', 'ts', '## Quick start');
    return written(
      'quickstart-client',
      `const CLIENT_ID = process.env.CLIENT_ID!;\nconst CLIENT_SECRET = process.env.CLIENT_SECRET!;\n${onThisSandbox(snippet!)}\nexport {};\n`,
    );
  },
  webhooks: () => written('webhook-handler', blocks('client/README.md', 'ts', '## Webhooks')[0]!),
};
function written(name: string, source: string): string {
  const file = join(ROOT, 'dist', `${name}.ts`);
  writeFileSync(file, source);
  return file;
}

describe('client README', () => {
  it('when its code blocks are counted, then each one is run below (four TypeScript, one shell)', () => {
    expect([blocks('client/README.md', 'ts').length, blocks('client/README.md', 'sh').length]).toEqual([4, 1]);
  });

  it('when its TypeScript snippets are type-checked as an integrator’s strict ES-module project would, then they compile', async () => {
    // One compiler run for the four (each is a module): a run costs ~2 s of CPU, most of it the same libraries.
    const files = [snippets.exports(), snippets.sandbox(), snippets.quickStart(), snippets.webhooks()];
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'ES2022', '--module', 'NodeNext'];
    await run(process.execPath, [tsc, ...flags, '--moduleResolution', 'NodeNext', ...files], { cwd: ROOT });
  }, 60_000);

  const runWithClient = (file: string, cwd: string) =>
    run(process.execPath, ['--import', 'tsx', file], { env: { ...env, SNIPPET_DIR: cwd }, cwd: ROOT });

  it('when the exports snippet is run, then it writes the month’s banking statement as CSV', async () => {
    const out = mkdtempSync(join(dir, 'exports-'));
    await runWithClient(snippets.exports(), out);
    const csv = readFileSync(join(out, 'banking-2026-11.csv'), 'utf8');
    expect(csv.split('\n')[0]).toContain('id');
  }, 60_000);

  it('when the sandbox snippet is run, then a banking transaction arrives from its amount alone', async () => {
    const { stdout } = await runWithClient(snippets.sandbox(), ROOT);
    expect(stdout).toMatch(/^arrived \d+: (DEBIT|CREDIT) 150\.25$/m);
  }, 60_000);

  it('when the quick start is run as written, then it lists transactions and reconciles one without an error', async () => {
    const file = snippets.quickStart();
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', file], { env, cwd: ROOT });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^reconciled \d+$/m);
  }, 60_000);

  it('when the webhook handler runs and the shell lines forward a triggered event to it, then it verifies the delivery and answers 204', async () => {
    const [shell] = blocks('client/README.md', 'sh', '## Webhooks');
    const file = snippets.webhooks();
    const hookPort = await freePort();
    const cli = {
      ...env,
      FINANCE_BASE_URL: `http://localhost:${port}`,
      FINANCE_CLIENT_ID: env.CLIENT_ID,
      FINANCE_CLIENT_SECRET: env.CLIENT_SECRET,
      XDG_CONFIG_HOME: join(dir, 'config'),
    };
    // The secret `listen` keeps for this machine and base URL, handed to the handler as the README says.
    const secret = listenSecret(cli.FINANCE_BASE_URL, cli);
    const started: ChildProcess[] = [];
    const start = (command: string, args: string[], extra: NodeJS.ProcessEnv) => {
      const child = spawn(command, args, { cwd: ROOT, env: { ...cli, ...extra } });
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      started.push(child);
      return () => out;
    };
    const asRun = (line: string) =>
      onThisSandbox(line)
        .replace('npx finance', `${process.execPath} bin/finance.js`)
        .replaceAll('localhost:3000', `localhost:${hookPort}`);
    const [exportLine, listenLine, triggerLine] = shell!.trim().split('\n');
    expect(exportLine).toMatch(/^export FINANCE_BASE_URL=/);
    try {
      const handlerOut = start(process.execPath, ['--import', 'tsx', file], {
        PORT: String(hookPort),
        FINANCE_WEBHOOK_SECRET: secret,
      });
      const listenOut = start('bash', ['-c', asRun(listenLine!)], {});
      await expect.poll(listenOut, { timeout: 30_000 }).toContain('Forwarding events');
      await run('bash', ['-c', asRun(triggerLine!)], { cwd: ROOT, env: cli });
      await expect.poll(listenOut, { timeout: 30_000 }).toMatch(/cost_center\.created .* -> 204/);
      await expect.poll(handlerOut, { timeout: 10_000 }).toContain('new cost center');

      // A delivery signed with another secret is refused with 400, not 500.
      const res = await fetch(`http://localhost:${hookPort}/hooks`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'webhook-id': 'msg_x',
          'webhook-timestamp': '1',
          'webhook-signature': 'v1,x',
        },
        body: '{}',
      });
      expect(res.status).toBe(400);
    } finally {
      for (const child of started) child.kill('SIGINT');
    }
  }, 120_000);
});
