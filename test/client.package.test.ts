// The client package as an integrator gets it: `npm pack` of client/ (built by `prepack`), the
// tarball installed into a fresh ES-module project and a fresh CommonJS project, each compiled
// with `tsc --strict` and run against the real server.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLIENT = join(ROOT, 'client');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

// The same program in both module systems; only the import line differs.
const program = (importLine: string) => `
${importLine}

declare const process: { argv: string[] };
async function main(): Promise<void> {
  const [baseUrl = '', clientId = '', clientSecret = ''] = process.argv.slice(2);
  const client = createFinanceClient({ baseUrl, clientId, clientSecret });

  // @ts-expect-error an unknown path does not compile (were the generated types unresolved, it would)
  void client.GET('/no/such/path');
  // @ts-expect-error an internal operation is not in the public contract the client is typed from
  void client.GET('/credit-cards/v1/vcns/{vcnId}/transactions', { params: { path: { vcnId: 'x' } } });

  const created: components['schemas']['CostCenter'] = await unwrap(client.POST('/cost-centers/v1/cost-centers', { body: { name: 'Packaged' } }));
  const conflict = await unwrap(client.POST('/cost-centers/v1/cost-centers', { body: { name: 'Packaged' } })).then(() => false, isConflict);
  let suppliers = 0;
  for await (const supplier of client.paginate.suppliers({ limit: 1 })) suppliers += supplier.id > 0 ? 1 : 0;
  console.log(JSON.stringify({ name: created.name, conflict, suppliers }));
}
void main();
`;

const TSCONFIG = (module: string, moduleResolution: string) => ({
  compilerOptions: {
    target: 'ES2022',
    module,
    moduleResolution,
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    esModuleInterop: true,
    outDir: 'out',
  },
  files: ['main.ts'],
});

const PROJECTS = {
  esm: {
    packageJson: { name: 'esm-consumer', private: true, type: 'module' },
    tsconfig: TSCONFIG('NodeNext', 'NodeNext'),
    source: program(
      "import { createFinanceClient, isConflict, unwrap, type components } from '@company-finance/client';",
    ),
  },
  commonjs: {
    packageJson: { name: 'cjs-consumer', private: true, type: 'commonjs' },
    tsconfig: TSCONFIG('CommonJS', 'Node10'),
    source: program(
      "import { createFinanceClient, isConflict, unwrap, type components } from '@company-finance/client';",
    ),
  },
} as const;

/** Whether client/dist was built after the last change to anything its build reads. */
function builtAfterSources(): boolean {
  const stamp = join(CLIENT, 'dist', 'cjs', 'package.json'); // the build's last write
  if (!existsSync(stamp)) return false;
  const inputs = [
    ...readdirSync(CLIENT).filter((f) => f.endsWith('.ts') || f.endsWith('.json') || f.endsWith('.mjs')),
    'generated/openapi.d.ts',
  ];
  const built = statSync(stamp).mtimeMs;
  return inputs.every((f) => statSync(join(CLIENT, f)).mtimeMs < built);
}

let server: TestServer;
let work: string;
let tarball: string;

beforeAll(async () => {
  server = await startTestServer();
  work = await mkdtemp(join(tmpdir(), 'client-package-'));
  // `npm pack` runs `prepack`, which builds dist/ from the committed sources and types; when dist/ is
  // newer than every input of that build (the repository's `npm ci` built it a moment ago), the
  // tarball is packed from it without building it a second time (two compiles, ~10 s of a core).
  const scripts = builtAfterSources() ? ['--ignore-scripts'] : [];
  const { stdout } = await run('npm', ['pack', '--json', ...scripts, '--pack-destination', work], { cwd: CLIENT });
  tarball = join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  for (const [name, project] of Object.entries(PROJECTS)) {
    const dir = join(work, name);
    await run('mkdir', ['-p', dir]);
    await writeFile(join(dir, 'package.json'), JSON.stringify(project.packageJson));
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(project.tsconfig));
    await writeFile(join(dir, 'main.ts'), project.source);
    // openapi-fetch comes from npm's cache, filled by the repository's own `npm ci`.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
      cwd: dir,
    });
  }
}, 180_000);
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

describe('the client package', () => {
  it('when packed, then the tarball holds the built modules and declarations of both formats, and no TypeScript source', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/esm/index.js',
        'dist/esm/index.d.ts',
        'dist/esm/generated/openapi.d.ts',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/cjs/generated/openapi.d.ts',
        'dist/cjs/package.json',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('when packed, then the package is built first (prepack), and its manifest has no script that npm would run on install', async () => {
    const manifest = JSON.parse(await readFile(join(CLIENT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.prepack).toBe(manifest.scripts.build);
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    const scripts = Object.keys((JSON.parse(stdout) as { scripts?: object }).scripts ?? {});
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts).not.toContain(hook);
  });

  it('when installed, then it brings openapi-fetch and standardwebhooks, and nothing of the server', async () => {
    const installed = (await readdir(join(work, 'esm', 'node_modules'))).filter((f) => !f.startsWith('.'));
    expect(installed).toEqual(expect.arrayContaining(['@company-finance', 'openapi-fetch', 'standardwebhooks']));
    for (const serverOnly of ['express', 'better-sqlite3', 'kysely', 'pino', 'commander'])
      expect(installed).not.toContain(serverOnly);
    const manifest = JSON.parse(await readFile(join(CLIENT, 'package.json'), 'utf8')) as { dependencies: object };
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch', 'standardwebhooks']);
  });

  for (const name of Object.keys(PROJECTS) as Array<keyof typeof PROJECTS>) {
    it(`when a ${name} project imports it, then it compiles under --strict and runs a call against the server`, async () => {
      const dir = join(work, name);
      await run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { cwd: dir });
      const emitted = await readFile(join(dir, 'out', 'main.js'), 'utf8');
      expect(emitted).toMatch(
        name === 'esm' ? /from '@company-finance\/client'/ : /require\("@company-finance\/client"\)/,
      );
      const acme = await server.newCompany();
      const { stdout } = await run(
        process.execPath,
        [join(dir, 'out', 'main.js'), server.baseUrl, acme.clientId, acme.clientSecret],
        { cwd: dir },
      );
      expect(JSON.parse(stdout)).toEqual({ name: 'Packaged', conflict: true, suppliers: 0 });
    }, 60_000);
  }

  it('when the client sources are read, then none imports a Node module or uses Node globals', async () => {
    for (const file of (await readdir(CLIENT)).filter((f) => f.endsWith('.ts'))) {
      const source = await readFile(join(CLIENT, file), 'utf8');
      expect(source, file).not.toMatch(/from ['"]node:|require\(|\bBuffer\b|\bprocess\./);
    }
  });
});
