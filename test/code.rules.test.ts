// Rules of the code base that the import rules (`npm run lint:deps`) cannot see: read from the
// sources themselves, so a change that breaks one fails here with the file that breaks it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
const server = sources('server').map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('code rules', () => {
  it('when the sources are read, then the two-decimals format is named in one file only (its registry)', () => {
    const naming = server.filter(({ text }) => /['"`]decimal2['"`]/.test(text)).map(({ path }) => path);
    expect(naming).toEqual(['server/contract/formats.ts']);
  });

  it('when the sources are read, then no request state lives in res.locals (the request context holds it)', () => {
    expect(server.filter(({ text }) => /\.locals\b/.test(text)).map(({ path }) => path)).toEqual([]);
  });

  it('when the sources are read, then no regular expression is applied to a validator’s message', () => {
    const parsing =
      /\.(test|exec|match|replace)\(\s*(item|e|err|error)\.message\b|\b(item|e|err|error)\.message\s*\.(replace|match|split)\(/;
    const validation = server.filter(({ path }) =>
      /server\/http\/(validator\/|pipeline\/error-handler)|ingest\/schema/.test(path),
    );
    expect(validation.length).toBeGreaterThan(2);
    expect(validation.filter(({ text }) => parsing.test(text)).map(({ path }) => path)).toEqual([]);
  });
});
