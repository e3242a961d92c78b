// The docs page as built: a curl and a TypeScript-client sample on every operation (generated from
// the contract's examples), the console and the changelog link, and nothing loaded from elsewhere.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs, docsPath } from '../server/docs.js';
import { withCodeSamples, type CodeSample } from '../server/docs-samples.js';
import { loadBundle } from '../server/contract/index.js';

let dir: string;
let html: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'docs-'));
  // The page the run's global setup built from the public bundle (test/support/global-setup.ts).
  html = readFileSync(docsPath, 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Operations = Record<string, Record<string, { operationId?: string; 'x-codeSamples'?: CodeSample[] }>>;

describe('code samples', () => {
  const samples = withCodeSamples(loadBundle('public')).paths as Operations;
  const all = Object.values(samples)
    .flatMap((item) => Object.values(item))
    .filter((op) => op.operationId);

  it('when the docs are built, then every operation has a curl and a TypeScript-client sample', () => {
    expect(all.length).toBeGreaterThan(30);
    for (const op of all) {
      expect(
        op['x-codeSamples']?.map((s) => s.label),
        op.operationId,
      ).toEqual(['curl', 'TypeScript client']);
    }
  });

  it('when listBankingTransactions is shown, then its samples call it with the contract examples', () => {
    const [curl, client] = samples['/statements/v1/banking']!.get!['x-codeSamples']!;
    expect(curl!.source).toBe(
      'curl -s "http://localhost:8080/statements/v1/banking?limit=20" \\\n  -H "Authorization: Bearer $TOKEN"',
    );
    expect(client!.source).toContain("import { createFinanceClient, unwrap } from '@company-finance/client';");
    expect(client!.source).toContain(
      "finance.GET('/statements/v1/banking', {\n  params: { query: { limit: 20 } },\n})",
    );
  });

  it('when a write takes a JSON body, then both samples send the request example', () => {
    const [curl, client] = samples['/cost-centers/v1/cost-centers']!.post!['x-codeSamples']!;
    expect(curl!.source).toContain('-H "Content-Type: application/json"');
    expect(curl!.source).toMatch(/-d '\{"name":/);
    expect(client!.source).toMatch(/body: \{\n\s+"name":/);
  });
});

describe('the docs page', () => {
  it('when built, then it holds the samples of listBankingTransactions, the console and the changelog link', () => {
    expect(html).toContain('curl -s \\"http://localhost:8080/statements/v1/banking?limit=20\\"');
    expect(html).toContain("finance.GET('/statements/v1/banking'");
    expect(html).toContain('id="try-it"');
    expect(html).toContain('(/changelog)');
  });

  it('when built, then no element loads anything from another host', () => {
    expect(html).not.toMatch(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(?:https?:)?\/\/[^"]*"/i);
    expect(html).not.toMatch(/href="https?:\/\/(?!localhost)/);
    expect(html).not.toContain('cdn.redoc.ly');
    expect(html).not.toContain('cdn.redocly.com');
  });

  it('when built, then the page names no other host at all, only the server it is served from', () => {
    // Loopback addresses (an app's redirect on the user's own machine, RFC 8252) are no other host.
    expect(html.match(/https?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])[^\s"'`)<]*/g) ?? []).toEqual([]);
    expect(html).toContain('http://localhost:8080');
  });
});

describe('building', () => {
  it('when two processes build the page into one file at once, then it holds one search box and one console, whole', async () => {
    // Two operations of the contract are enough to see two builds collide (a whole page costs ~5 s of a core).
    const bundle = loadBundle('public');
    const input = join(dir, 'two-operations.json');
    const [first, second] = Object.entries(bundle.paths as Record<string, unknown>);
    writeFileSync(input, JSON.stringify({ ...bundle, paths: Object.fromEntries([first!, second!]) }));
    const output = join(dir, 'together.html');
    await Promise.all([buildDocs(input, output), buildDocs(input, output)]);
    const page = readFileSync(output, 'utf8');
    const count = (text: string) => page.split(text).length - 1;
    expect(count('id="docs-search-index"')).toBe(1);
    expect(count('id="try-it-operations"')).toBe(1);
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 240_000);
});
