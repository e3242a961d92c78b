// One declaration of the settings (server/settings.ts): every variable the code reads is in it and
// in docs/configuration.md, and a bad value is refused naming the variable.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../server/config.js';
import { checkSettings, configurationMarkdown, envExample } from '../server/settings.js';

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|js)$/.test(name) ? [path] : [];
  });

describe('the settings', () => {
  it('when the code reads an environment variable, then docs/configuration.md and .env.example name it', () => {
    const read = new Set<string>();
    for (const file of [...sources('server'), ...sources('bin')])
      for (const match of readFileSync(file, 'utf8').matchAll(/env(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) read.add(match[1]!);
    expect(read.size).toBeGreaterThan(20);
    const table = readFileSync('docs/configuration.md', 'utf8');
    expect(table).toBe(configurationMarkdown());
    expect(readFileSync('.env.example', 'utf8')).toBe(envExample());
    const missing = [...read].filter((name) => !table.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });

  it('when a value is malformed, then the error names the variable and what is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/^PORT: must be a whole number from 0 to 65535 \(got "abc"\)$/);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '-5' })).toThrow(/^RATE_LIMIT_PER_MINUTE: /);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL: must be one of/);
    expect(() => loadConfig({ CURSOR_SECRET: 'short' })).toThrow(
      /^CURSOR_SECRET: must be 64 hex characters \(32 bytes\)$/,
    );
    expect(() => loadConfig({ VCN_ENABLED: 'yes' })).toThrow(/^VCN_ENABLED: must be one of true, false/);
    expect(loadConfig({ PORT: '' }).baseUrl).toBe('http://localhost:8080');
  });

  it('when production is missing its secrets, then the start is refused naming each; the sandbox needs none', () => {
    expect(() => checkSettings({ NODE_ENV: 'production', CVV_KEY: 'a'.repeat(64) })).toThrow(
      /CURSOR_SECRET, URL_SIGNING_SECRET, PAN_ENCRYPTION_KEY, IDEMPOTENCY_ENCRYPTION_KEY;/,
    );
    expect(() => checkSettings({})).not.toThrow();
    expect(loadConfig({ NODE_ENV: 'production' }).cardIssuer).toBe('none');
    expect(loadConfig({}).cardIssuer).toBe('simulated');
  });
});
