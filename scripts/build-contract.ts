// Rebuilds generated/ from openapi/: the public and internal bundles and the TypeScript types.
// With --check, builds into a temporary folder and fails when a committed file differs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const out = check ? mkdtempSync(join(tmpdir(), 'contract-')) : 'generated';
mkdirSync(out, { recursive: true });
const bin = (name: string) => join('node_modules', '.bin', name);
const run = (cmd: string, args: string[]) => execFileSync(bin(cmd), args, { stdio: ['ignore', 'ignore', 'inherit'] });

run('redocly', ['bundle', 'internal', '-o', join(out, 'openapi.internal.json')]);
run('redocly', ['bundle', 'public', '-o', join(out, 'openapi.public.json')]);
run('openapi-typescript', [join(out, 'openapi.internal.json'), '--redocly', 'openapi-typescript.redocly.yaml', '-o', join(out, 'openapi.d.ts')]);

if (check) {
  const stale = ['openapi.internal.json', 'openapi.public.json', 'openapi.d.ts'].filter((file) => {
    const committed = join('generated', file);
    return !existsSync(committed) || readFileSync(committed, 'utf8') !== readFileSync(join(out, file), 'utf8');
  });
  rmSync(out, { recursive: true, force: true });
  if (stale.length > 0) {
    console.error(`generated/ is stale: ${stale.join(', ')}. Run \`npm run build\` and commit the result.`);
    process.exit(1);
  }
  console.log('generated/ is up to date');
}
