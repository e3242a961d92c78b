// docs/authorization.md's curl sample of the authorization-code flow, run as written against a test
// server (`npx finance` is the same command as `node bin/finance.js`, without npx's start-up).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

const run = promisify(execFile);
let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const curlSample = () => {
  const text = readFileSync('docs/authorization.md', 'utf8');
  const from = text.indexOf('### Runnable: the whole flow with curl');
  return /```sh\n([\s\S]*?)```/.exec(text.slice(from))![1]!;
};

describe('docs/authorization.md samples', () => {
  it('when the curl sample is run, then it ends with an access token and a refresh token for the scope asked', async () => {
    const lines = curlSample().split('\n');
    expect(lines[0]).toMatch(/^BASE=http:\/\/localhost:8080 COMPANY=<company id>$/);
    const script = [`BASE=${server.baseUrl} COMPANY=${acme.companyId}`, ...lines.slice(1)]
      .join('\n')
      .replaceAll('npx finance apps approval-code', `node bin/finance.js apps approval-code --db '${server.location}'`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 120_000 });
    const answer = JSON.parse(stdout) as { access_token: string; refresh_token: string; scope: string };
    expect(answer.access_token).toMatch(/^oat_/);
    expect(answer.refresh_token).toMatch(/^rt_/);
    expect(answer.scope).toBe('statements:read');
  }, 150_000);

  it('when the random verifier begins with "-", then the sample still derives its S256 challenge', async () => {
    // base64url has '-' among its 64 characters: one verifier in 64 begins with it, which node would
    // otherwise read as an option of its own.
    const challengeLine = curlSample()
      .split('\n')
      .find((line) => line.startsWith('CHALLENGE='))!;
    const verifier = '-Y7VQH6BWK6Pid1yzWkZZ-0X-aTAGiicrZda_k_4qLU';
    const script = `VERIFIER='${verifier}'\n${challengeLine}\necho "$CHALLENGE"`;
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script]);
    expect(stdout.trim()).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });
});
