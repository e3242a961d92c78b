// The packaged client: `npm run build:client` emits dist/client with declarations, and a consumer
// importing 'company-finance-service/client' type-checks (browser libs, no Node types) and runs.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONSUMER = join(ROOT, 'dist', 'consumer-check');

const CONSUMER_SOURCE = `
import { createFinanceClient, isConflict, unwrap, type components } from 'company-finance-service/client';

declare const process: { argv: string[] };
const [baseUrl = '', clientId = '', clientSecret = ''] = process.argv.slice(2);
const client = createFinanceClient({ baseUrl, clientId, clientSecret });

// @ts-expect-error an unknown path does not compile (were the generated types unresolved, it would)
void client.GET('/no/such/path');

const created: components['schemas']['CostCenter'] = await unwrap(client.POST('/cost-centers/v1/cost-centers', { body: { name: 'Packaged' } }));
const conflict = await unwrap(client.POST('/cost-centers/v1/cost-centers', { body: { name: 'Packaged' } })).then(() => false, isConflict);
let suppliers = 0;
for await (const supplier of client.paginate.suppliers({ limit: 1 })) suppliers += supplier.id > 0 ? 1 : 0;
console.log(JSON.stringify({ name: created.name, conflict, suppliers }));
`;

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [],
    strict: true, skipLibCheck: true, rootDir: '.', outDir: '.',
  },
  files: ['consumer.ts'],
};

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await run('npm', ['run', '--silent', 'build:client'], { cwd: ROOT });
  await mkdir(CONSUMER, { recursive: true });
  await writeFile(join(CONSUMER, 'consumer.ts'), CONSUMER_SOURCE);
  await writeFile(join(CONSUMER, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
}, 120_000);
afterAll(async () => server.close());

describe('the packaged client', () => {
  it('when built, then dist/client holds the modules with their declarations, and the generated types beside them', async () => {
    const files = await readdir(join(ROOT, 'dist', 'client'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'errors.d.ts', 'paginate.d.ts']));
    expect(await readdir(join(ROOT, 'dist', 'generated'))).toContain('openapi.d.ts');
  });

  it('when a consumer imports company-finance-service/client, then it type-checks without Node types and runs against the server', async () => {
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CONSUMER, 'tsconfig.json')], { cwd: ROOT });
    const acme = await server.newCompany();
    const { stdout } = await run(process.execPath, [join(CONSUMER, 'consumer.js'), server.baseUrl, acme.clientId, acme.clientSecret], { cwd: CONSUMER });
    expect(JSON.parse(stdout)).toEqual({ name: 'Packaged', conflict: true, suppliers: 0 });
  }, 60_000);

  it('when the client sources are read, then none imports a Node module or uses Node globals', async () => {
    const dir = join(ROOT, 'client');
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts'))) {
      const source = await readFile(join(dir, file), 'utf8');
      expect(source, file).not.toMatch(/from ['"]node:|require\(|\bBuffer\b|\bprocess\./);
    }
  });
});
