// Builds the package: ES modules in dist/esm, CommonJS in dist/cjs, each with its declarations
// and the contract's generated types beside them. Runs on `prepack` (so the tarball carries no
// install script and installs without building) and from the repository root's `prepare`
// (`npm ci` there leaves a usable package). Plain Node: no dependency but the TypeScript compiler.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dist = join(here, 'dist');

rmSync(dist, { recursive: true, force: true });
for (const [format, config] of [['esm', 'tsconfig.json'], ['cjs', 'tsconfig.cjs.json']]) {
  execFileSync(process.execPath, [tsc, '-p', join(here, config)], { stdio: 'inherit' });
  // tsc does not copy declaration-only inputs; the emitted declarations import this one.
  mkdirSync(join(dist, format, 'generated'), { recursive: true });
  copyFileSync(join(here, 'generated', 'openapi.d.ts'), join(dist, format, 'generated', 'openapi.d.ts'));
}
// The package is "type": "module"; this marks dist/cjs as CommonJS for Node and TypeScript.
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
