// The API docs page: the public contract as one self-contained HTML page (Redoc, inlined: no CDN,
// works offline). The page is megabytes and unreadable in a diff, so it is built on demand into the
// git-ignored generated/docs/ (`npm run build:docs`, `npm run build`, or `npm start` when missing)
// and served by the app at /docs.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const docsPath = resolve(projectRoot, 'generated', 'docs', 'index.html');
export const publicBundlePath = resolve(projectRoot, 'generated', 'openapi.public.json');

/** Builds the docs page from the public bundle and returns its path. */
export async function buildDocs(input = publicBundlePath, output = docsPath): Promise<string> {
  mkdirSync(dirname(output), { recursive: true });
  const { info } = JSON.parse(readFileSync(input, 'utf8')) as { info: { title: string } };
  const redocly = resolve(projectRoot, 'node_modules', '.bin', 'redocly');
  try {
    await promisify(execFile)(redocly, ['build-docs', input, '--inlineBundle', '--title', info.title, '-o', output], {
      cwd: projectRoot, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`redocly build-docs failed:\n${stdout}${stderr}`);
  }
  assertSelfContained(output);
  return output;
}

// Redoc loads its viewer from the Redocly CDN unless inlined; a page that still points there
// would show nothing offline.
function assertSelfContained(file: string): void {
  const html = readFileSync(file, 'utf8');
  const external = /<(?:script|link)\b[^>]*\b(?:src|href)="(https?:)?\/\/[^"]*"/i.exec(html);
  if (external) throw new Error(`${file} loads ${external[0]}; the docs must work without network`);
}
