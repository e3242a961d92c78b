// Builds the package: ES modules in dist/esm, CommonJS in dist/cjs, each with its declarations
// and the contract's generated types beside them. Runs on `prepack` (so the tarball carries no
// install script and installs without building) and from the repository root's `prepare`
// (`npm ci` there leaves a usable package). Plain Node: no dependency but the TypeScript compiler.
import { execFile } from 'node:child_process';
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

/** One format's compile: its own tsc process, so the two run side by side (one core each). */
const compile = (format, config) =>
  new Promise((resolve, reject) => {
    const out = join(staging, format);
    execFile(process.execPath, [tsc, '-p', join(here, config), '--outDir', out], (err, stdout, stderr) => {
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (err) return reject(new Error(`tsc (${format}) failed`));
      // tsc does not copy declaration-only inputs; the emitted declarations import this one.
      mkdirSync(join(out, 'generated'), { recursive: true });
      copyFileSync(join(here, 'generated', 'openapi.d.ts'), join(out, 'generated', 'openapi.d.ts'));
      resolve();
    });
  });
const built = await Promise.allSettled([compile('esm', 'tsconfig.json'), compile('cjs', 'tsconfig.cjs.json')]);
const failed = built.find((outcome) => outcome.status === 'rejected');
if (failed) {
  rmSync(staging, { recursive: true, force: true });
  console.error(failed.reason.message);
  process.exit(1);
}
// The package is "type": "module"; this marks dist/cjs as CommonJS for Node and TypeScript.
writeFileSync(join(staging, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
const previous = join(here, `dist.old-${process.pid}`);
if (existsSync(dist)) renameSync(dist, previous);
renameSync(staging, dist);
rmSync(previous, { recursive: true, force: true });
