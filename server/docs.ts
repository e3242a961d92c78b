// The API docs page: the public contract as one self-contained HTML page (Redoc, inlined: no CDN,
// works offline), with a curl and a TypeScript-client sample on every operation (generated from the
// contract's examples, server/docs-samples.ts), a "try it" console against the server that serves
// the page (server/docs-console.ts) and a link to the changelog (/changelog). The page is megabytes and unreadable in a diff, so it is built into the
// git-ignored generated/docs/ by `npm run build` (`npm run build:docs`), or by the sandbox's start
// when missing (never by a production server: @redocly/cli is a development tool), and served by the app at /docs.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { consoleHtml, type ConsoleOperation, type ConsoleParameter } from './docs-console.js';
import { withBodyIds, withCodeSamples } from './docs-samples.js';
import { searchEntries, searchHtml, type SearchEntry } from './docs-search.js';
import { loadBundle } from './contract/index.js';
import { buildProductionDocs } from './contract/sandbox.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const docsPath = resolve(projectRoot, 'generated', 'docs', 'index.html');
export const publicBundlePath = resolve(projectRoot, 'generated', 'openapi.public.json');
export const changelogPath = resolve(projectRoot, 'openapi', 'CHANGELOG.md');
/** The errors guide, rendered as the page's "Errors" section (each reason's `docUrl` points into it). */
const errorsGuidePath = resolve(projectRoot, 'docs', 'errors.md');

type Json = Record<string, unknown>;

/** The bundle the page renders: the public one with code samples and the changelog link. */
function docsBundle(bundle: Json): Json {
  const out = withCodeSamples(bundle);
  const info = out.info as { description?: string };
  info.description = `${info.description ?? ''}\n\n**[Changelog](/changelog)** of the contract · **Try it**: the button at the bottom right sends calls to this server with your sandbox credentials.\n\n${readFileSync(errorsGuidePath, 'utf8')}`;
  return out;
}

type Parameter = {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: Json;
};

/** The operation's path and query parameters, each with the value its console field starts with. */
function parametersOf(
  bundle: Json,
  path: string,
  item: Record<string, Json>,
  op: Json,
  ids: Record<string, string | number>,
): ConsoleParameter[] {
  const parameters = (bundle.components as Record<string, Record<string, Json>>).parameters ?? {};
  return [...((item.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])]
    .map(
      (p) =>
        ((p.$ref as string | undefined) ? (parameters[String(p.$ref).split('/').pop() ?? ''] ?? {}) : p) as Parameter,
    )
    .filter((p): p is Parameter & { name: string; in: 'path' | 'query' } => p.in === 'path' || p.in === 'query')
    .map((p) => {
      const prefix = p.in === 'path' ? path.slice(0, path.indexOf(`{${p.name}}`) + p.name.length + 2) : '';
      const example = ids[prefix] ?? p.example ?? (p.schema?.examples as unknown[] | undefined)?.[0];
      const shown = p.in === 'path' || p.name === 'limit' ? example : undefined;
      return {
        name: p.name,
        in: p.in,
        required: p.in === 'path' || p.required === true,
        value: shown === undefined ? '' : Array.isArray(shown) ? shown.join(',') : String(shown),
        description: String(p.description ?? '').split('\n')[0] ?? '',
      };
    });
}

/**
 * The operations offered by the console, with their examples; `ids` as in withCodeSamples (the
 * sandbox's demo company's, server/sandbox/docs-demo.ts).
 */
export function consoleOperations(bundle: Json, ids: Record<string, string | number> = {}): ConsoleOperation[] {
  const operations: ConsoleOperation[] = [];
  for (const [path, item] of Object.entries((bundle.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
      const content =
        (op.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)?.content ?? {};
      const [bodyType, media] = Object.entries(content)[0] ?? [];
      const example = withBodyIds(media?.example, ids);
      const body =
        bodyType === 'application/json' && example !== undefined
          ? JSON.stringify(example, null, 2)
          : bodyType === 'application/x-www-form-urlencoded'
            ? 'grant_type=client_credentials'
            : undefined;
      operations.push({
        operationId: String(op.operationId),
        method,
        path,
        summary: String(op.summary ?? ''),
        parameters: parametersOf(bundle, path, item, op, ids),
        ...(body !== undefined ? { body, bodyType } : {}),
      });
    }
  }
  return operations;
}

// Resources Redoc's viewer would fetch from the internet (its logo badge, icon sets); the page
// must not make a single request off the machine.
const REMOTE_RESOURCES = [
  /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g,
  /https:\/\/cdn\.redocly\.com\/icons\/[\w./-]*/g,
  /https:\/\/otel\.cloud\.redocly\.com\/v1\/traces/g,
];
const EMPTY_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACwAAAAAAQABAAA=';

// The code samples' pane is narrow: long lines (a URL with its query, a JSON body) wrap instead of
// being clipped, and the copy button's row sits above the code instead of over its first line.
const SAMPLE_LAYOUT = `<style>
[data-testid="right-panel"] pre[data-component-name="CodeBlock/CodeBlockContainer"] {
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  padding-top: 2.25rem;
}
</style>`;

/** The page Redoc built, made fully local, with the search box, the console and the samples' layout added. */
function finishPage(html: string, operations: ConsoleOperation[], search: SearchEntry[]): string {
  let out = html;
  for (const pattern of REMOTE_RESOURCES) out = out.replace(pattern, EMPTY_IMAGE);
  // The "API docs by Redocly" badge links off the machine; the page has its own footer link.
  out = out
    .replace(/href="https:\/\/redocly\.com\/redoc\/"/g, 'href="/changelog"')
    .replace(/href:`https:\/\/redocly\.com\/redoc\/`/g, 'href:`/changelog`');
  // The viewer starts when the search box lets it (docs-search.ts), and the box, the console and
  // their scripts come before its script: they work while it parses and starts.
  const start = out.indexOf(VIEWER_START);
  const viewerScript = scriptHolding(out, start);
  if (viewerScript < 0) throw new Error('the docs page does not start its viewer as expected (Redoc changed?)');
  const deferred = `(window.docsViewer || ((start) => start()))(() => ${VIEWER_START.slice(0, -1)});`;
  return [
    out.slice(0, viewerScript),
    SAMPLE_LAYOUT,
    searchHtml(search),
    consoleHtml(operations),
    out.slice(viewerScript, start),
    deferred,
    out.slice(start + VIEWER_START.length),
  ].join('');
}

/** Where the script element holding `at` opens, or -1 (elements matched whole: their code holds `<script` too). */
function scriptHolding(html: string, at: number): number {
  for (const element of html.matchAll(new RegExp(SCRIPT_ELEMENT, 'gi'))) {
    if (element.index > at) break;
    if (at < element.index + element[0].length) return element.index;
  }
  return -1;
}

/** A script element, up to its first closing tag (the page's scripts write theirs escaped, `<\/script>`). */
const SCRIPT_ELEMENT = String.raw`<script\b[^>]*>[\s\S]*?<\/script>`;

/** How Redoc's page starts its viewer over the prerendered markup. */
const VIEWER_START = "hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'));";

// The page fetches nothing off the machine, but Redoc's code and the contract's text still name
// other hosts (SVG namespaces, links in error messages, example webhook URLs). They are written
// with escaped slashes — `\/` inside scripts, `&#47;` in markup, `%2F` in the style sheet's SVG
// data URIs — which read back as the same characters, so the page holds no literal address of
// another host. The serving host (localhost in the built page, replaced when served) is left as is.
const EXTERNAL = /(https?):\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/g;

/** Script text as the built page holds it (other hosts' addresses with escaped slashes). */
export const asInPageScript = (text: string) => text.replace(EXTERNAL, '$1:\\/\\/');

function withoutExternalAddresses(html: string): string {
  return html
    .split(new RegExp(`(${SCRIPT_ELEMENT}|<style\\b[^>]*>[\\s\\S]*?<\\/style>)`, 'i'))
    .map((part) => {
      if (/^<style/i.test(part)) return part.replace(EXTERNAL, '$1%3A%2F%2F'); // only SVG data URIs: percent-decoded when read
      if (/^<script/i.test(part)) return asInPageScript(part);
      return part.replace(EXTERNAL, '$1:&#47;&#47;');
    })
    .join('');
}

/** Builds the docs page from the public bundle and returns its path. */
export async function buildDocs(input = publicBundlePath, output = docsPath): Promise<string> {
  mkdirSync(dirname(output), { recursive: true });
  const bundle = JSON.parse(readFileSync(input, 'utf8')) as Json & { info: { title: string } };
  const work = mkdtempSync(join(tmpdir(), 'docs-'));
  const source = join(work, 'openapi.json');
  // Rendered and finished in the work folder, then renamed into place: processes that build the
  // page at the same time (servers started together on a fresh checkout) each replace it whole,
  // never finish a page another has finished already, and no reader sees half of one.
  const renderedPage = join(work, 'index.html');
  const rendered = docsBundle(bundle);
  writeFileSync(source, JSON.stringify(rendered));
  const redocly = resolve(projectRoot, 'node_modules', '.bin', 'redocly');
  try {
    await promisify(execFile)(
      redocly,
      ['build-docs', source, '--inlineBundle', '--title', bundle.info.title, '-o', renderedPage],
      {
        cwd: projectRoot,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`redocly build-docs failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    });
    const page = finishPage(readFileSync(renderedPage, 'utf8'), consoleOperations(bundle), searchEntries(rendered));
    assertSelfContained(page, output);
    const finished = join(dirname(output), `.${basename(output)}.${basename(work)}.tmp`);
    writeFileSync(finished, withoutExternalAddresses(page));
    renameSync(finished, output);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return output;
}

/** Builds the page without the sandbox (production.html) from the public bundle, beside the full one. */
export const buildProductionPage = (): Promise<void> => buildProductionDocs(loadBundle('public'), docsPath, buildDocs);

// Redoc loads its viewer from the Redocly CDN unless inlined; a page that still points there
// would show nothing offline.
function assertSelfContained(html: string, file: string): void {
  const external =
    /<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(https?:)?\/\/[^"]*"/i.exec(html) ??
    REMOTE_RESOURCES.map((pattern) => new RegExp(pattern.source).exec(html)).find(Boolean);
  if (external) throw new Error(`${file} loads ${external[0]}; the docs must work without network`);
}
