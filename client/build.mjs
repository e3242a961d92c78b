// Builds the package: ES modules in dist/esm, CommonJS in dist/cjs, each with its declarations
// and the contract's generated types beside them. Runs on `prepack` (so the tarball carries no
// install script and installs without building) and from the repository root's `prepare`
// (`npm ci` there leaves a usable package). Plain Node: no dependency but the TypeScript compiler.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dist = join(here, 'dist');

// Built beside dist/ and swapped in at the end: a process importing the package meanwhile (the
// `finance` command's API tools do) finds the previous build or this one, never an empty folder.
const staging = join(here, `dist.build-${process.pid}`);
rmSync(staging, { recursive: true, force: true });
for (const [format, config] of [['esm', 'tsconfig.json'], ['cjs', 'tsconfig.cjs.json']]) {
  const out = join(staging, format);
  execFileSync(process.execPath, [tsc, '-p', join(here, config), '--outDir', out], { stdio: 'inherit' });
  // tsc does not copy declaration-only inputs; the emitted declarations import this one.
  mkdirSync(join(out, 'generated'), { recursive: true });
  copyFileSync(join(here, 'generated', 'openapi.d.ts'), join(out, 'generated', 'openapi.d.ts'));
}
// The package is "type": "module"; this marks dist/cjs as CommonJS for Node and TypeScript.
writeFileSync(join(staging, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
const previous = join(here, `dist.old-${process.pid}`);
if (existsSync(dist)) renameSync(dist, previous);
renameSync(staging, dist);
rmSync(previous, { recursive: true, force: true });
