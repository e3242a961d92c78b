// `npm run build:server`: compiles server/ into dist/, as `bin/finance.js` runs it: one JavaScript
// file and its source map per TypeScript file, with esbuild. It transpiles and checks no types
// (`npm run typecheck` does: `isolatedModules` and `verbatimModuleSyntax` hold, so each file compiles
// alone as tsc would emit it), in ~1 s where tsc took 10–13 s of every `npm ci` (prepare) and build.
// dist/.built is dated to when the build began (the test suite's global setup rebuilds when a source
// is newer).
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { filesUnder, isFresh, isMain, projectRoot } from './tools.js';

/** Dated to when the last build of dist/ began. */
export const BUILT_STAMP = join('dist', '.built');

export async function buildServer(root: string = projectRoot): Promise<void> {
  const started = new Date();
  const source = join(root, 'server');
  const entryPoints = readdirSync(source, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(source, name));
  await build({
    entryPoints,
    outdir: join(root, 'dist'),
    outbase: source,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // As tsc wrote them: a map points at server/, it does not carry the sources (smaller, read at start).
    sourcesContent: false,
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  const stamp = join(root, BUILT_STAMP);
  writeFileSync(stamp, `${entryPoints.length} files\n`);
  utimesSync(stamp, started, started);
}

/** What dist/ is built from: the server's sources, the compiler's settings and version, this script. */
const BUILD_INPUTS = ['tsconfig.json', 'package-lock.json', 'scripts/build-server.ts'];

/** dist/ was built after its every input last changed (as `npm ci` leaves it, or the previous build). */
export const distIsFresh = (): boolean => isFresh(BUILT_STAMP, [...BUILD_INPUTS, ...filesUnder('server', '.ts')]);

// `--if-stale`: only when a source is newer than dist/ (the production install's --reuse-build).
if (isMain(import.meta.url) && !(process.argv.includes('--if-stale') && distIsFresh())) await buildServer();
