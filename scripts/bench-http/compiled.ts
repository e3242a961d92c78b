// The bench's servers as production runs them: compiled JavaScript, no loader. Ours is `dist/` (built
// here first, `npm run build:server`, so it is this checkout's code) started through `bin/finance.js`;
// the peers (replay.ts, same-work.ts, fastify-peer.ts and what they import of this folder) are
// transpiled one file each into a work folder (an ES module package) beside two links — `server` to `dist/` and
// `node_modules` to the checkout's — so their `../../server/…` imports load the same compiled modules
// ours runs, and each module finds its files (`generated/`, `package.json`) from its real path.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');
const PEERS = ['replay', 'peer', 'same-work', 'fastify-peer', 'fastify-duties'];

/** Compiles a checkout's `server/` into its `dist/` with that checkout's own `npm run build:server`, or throws with its output. */
export function buildServer(checkout = root) {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: checkout, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:server failed:\n${build.stdout}${build.stderr}`);
}

/** Writes the peers as JavaScript under `dir`; returns the path of a peer's script by its name. */
export function compilePeers(dir: string): (name: string) => string {
  const out = join(dir, 'scripts/bench-http');
  mkdirSync(out, { recursive: true });
  symlinkSync(join(root, 'dist'), join(dir, 'server'), 'dir');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const name of PEERS) {
    const source = readFileSync(join(root, 'scripts/bench-http', `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        verbatimModuleSyntax: true,
      },
      fileName: `${name}.ts`,
    });
    writeFileSync(join(out, `${name}.js`), outputText);
  }
  return (name) => join(out, `${name}.js`);
}
