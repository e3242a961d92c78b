// Paths that are almost the contract's: every path of the contract with one literal part changed —
// letter case, a percent-encoded letter, a dot-segment, a doubled or trailing slash — with and without
// a token. None of them is the contract's path, so each is 404 before any credential check, in the
// common error body; none ever reaches a handler or answers 5xx. The exact paths, for contrast, answer
// 401 without a token, 405 with Allow for a method they do not take, and HEAD on every GET.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type ContractOperation } from '../server/contract/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
}, 60_000);
afterAll(async () => {
  agent.destroy();
  await server.close();
});

// node:http sends the path as written (fetch would resolve dot-segments before sending).
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

const operations = contract().operations;
const paths = [...new Set(operations.map((op) => op.path))];

/** A value for each `{parameter}`: well-formed enough to pass the validator, found or not. */
const SAMPLE: Record<string, string> = {
  userId: '3f9c2b1e-8d4a-4c6f-a2b7-5e1d0c9f8a64',
  dueDate: '2026-11-20',
  eventId: 'evt_01JD3Q5W2K8Z9Y7X6V5T4S3R2Q',
};
const concrete = (path: string) => path.replace(/\{([^}]+)\}/g, (_m, name: string) => SAMPLE[name] ?? '1');

/**
 * The concrete path with one part changed, each way a path can be almost right. `literal`: only the
 * contract's own text was changed (so the path is not the contract's: 404); otherwise a parameter's
 * value took the change, and the validator judges it.
 */
function variants(path: string): Array<[label: string, variant: string, literal: boolean]> {
  const sample = concrete(path);
  const segments = path.split('/').slice(1);
  // The last literal segment (a letter in it is what the variants change).
  const at = segments.map((s, i) => (s.startsWith('{') ? -1 : i)).filter((i) => i >= 0);
  const literal = at[at.length - 1]!;
  const concreteSegments = sample.split('/').slice(1);
  const change = (f: (segment: string) => string) =>
    `/${concreteSegments.map((s, i) => (i === literal ? f(s) : s)).join('/')}`;
  const letter = concreteSegments[literal]!.search(/[a-z]/);
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
  const endsLiteral = !path.endsWith('}');
  return [
    ['upper case', sample.toUpperCase(), true],
    [
      'one segment capitalised',
      change((s) => s.slice(0, letter) + s[letter]!.toUpperCase() + s.slice(letter + 1)),
      true,
    ],
    ['first segment capitalised', `/${sample[1]!.toUpperCase()}${sample.slice(2)}`, true],
    ['a percent-encoded letter', change((s) => s.slice(0, letter) + hex(s[letter]!) + s.slice(letter + 1)), true],
    [
      'a lower-case percent-encoded letter',
      change((s) => s.slice(0, letter) + hex(s[letter]!).toLowerCase() + s.slice(letter + 1)),
      true,
    ],
    ['a percent-encoded slash', sample.replace(/\/([^/]*)$/, '%2F$1'), !/\{[^}]+\}\/[^/]+$/.test(path)],
    ['a dot segment', sample.replace(/^\/([^/]+)\//, '/$1/./'), true],
    ['a dot-dot segment', sample.replace(/^\/([^/]+)\//, '/$1/x/../'), true],
    ['an encoded dot-dot segment', sample.replace(/^\/([^/]+)\//, '/$1/x/%2e%2e/'), true],
    ['an encoded dot segment', sample.replace(/^\/([^/]+)\//, '/$1/%2E/'), true],
    ['a leading double slash', `/${sample}`, true],
    ['an inner double slash', sample.replace(/^\/([^/]+)\//, '/$1//'), true],
    ['a trailing slash', `${sample}/`, true],
    ['a trailing dot', `${sample}.`, endsLiteral],
    ['a backslash', sample.replace(/^\/([^/]+)\//, '/$1\\'), true],
  ];
}

/** Whether another path's template takes `variant` as it stands (its changed segment lands in a parameter). */
const takenByAnother = (path: string, variant: string) =>
  paths.some(
    (other) =>
      other !== path &&
      new RegExp(`^${other.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`).test(variant),
  );

const methodsOf = (path: string) => operations.filter((op) => op.path === path).map((op) => op.method);

interface Reply {
  status: number;
  text: string;
  headers: { get(name: string): string | undefined };
}

function call(method: string, path: string, token?: string): Promise<Reply> {
  const body = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : '{}';
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method,
        path,
        agent,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text,
            headers: { get: (name) => res.headers[name.toLowerCase()] as string | undefined },
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('paths that are almost the contract’s', () => {
  it('when the contract is read, then every path has variants', () => {
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths)
      for (const [label, variant] of variants(path)) expect(variant, `${path} ${label}`).not.toBe(concrete(path));
  });

  it.each([
    ['without a token', false],
    ['with a token of every scope', true],
  ])(
    'when every variant of every path is called %s, then 404 in the error body (4xx where a parameter took the change), never 5xx',
    async (_label, withToken) => {
      const problems: string[] = [];
      let sent = 0;
      for (const path of paths) {
        for (const method of [...methodsOf(path), ...(methodsOf(path).includes('GET') ? ['HEAD'] : [])]) {
          for (const [label, variant, literal] of variants(path)) {
            const res = await call(method, variant, withToken ? acme.token : undefined);
            sent += 1;
            const where = `${method} ${variant} (${label}) → ${res.status}`;
            const open = operations.some((op) => op.path === path && op.scopes === undefined);
            const allowed =
              literal && !takenByAnother(path, variant)
                ? [404]
                : withToken || open
                  ? [400, 401, 403, 404, 405, 409, 415, 422]
                  : [401, 404, 405];
            if (!allowed.includes(res.status)) {
              problems.push(`${where}: ${res.text.slice(0, 120)}`);
              continue;
            }
            if (res.status !== 404) continue;
            if (method === 'HEAD') continue;
            const body = JSON.parse(res.text) as { code: number; requestId: string; error: string };
            if (body.code !== 404 || body.error !== 'Not Found' || body.requestId !== res.headers.get('x-request-id'))
              problems.push(`${where}: body ${res.text.slice(0, 120)}`);
          }
        }
      }
      expect(sent).toBeGreaterThan(1000);
      expect(problems, problems.slice(0, 30).join('\n')).toEqual([]);
    },
    120_000,
  );
});

describe('the exact paths, before authentication', () => {
  it('when a path of the contract is called with a method it does not take, then 405 with Allow, without a token', async () => {
    for (const path of paths) {
      const methods = methodsOf(path);
      const other = ['PUT', 'PATCH', 'DELETE', 'GET', 'POST'].find((m) => !methods.includes(m))!;
      const res = await call(other, concrete(path));
      expect(res.status, `${other} ${path}`).toBe(405);
      const allow = res.headers.get('allow')?.split(', ') ?? [];
      expect(allow, path).toEqual(expect.arrayContaining(methods));
      if (methods.includes('GET')) expect(allow, path).toContain('HEAD');
      const body = JSON.parse(res.text) as { code?: unknown; error?: unknown };
      // The OAuth endpoints (token, registration, revocation) answer RFC 6749's body.
      const oauthPath = path.startsWith('/oauth/');
      expect(oauthPath ? body.error : body.code, path).toBeDefined();
    }
  });

  it('when an unknown path is called without a token, then 404 in the common error body', async () => {
    const res = await call('GET', '/statements/v2/banking');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ code: 404, error: 'Not Found', details: [] });
  });

  it('when virtual cards are off, then their paths are unknown to every method, 404 and never 405', async () => {
    const off = await startTestServer({ config: { vcnEnabled: false } });
    try {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await fetch(`${off.baseUrl}/credit-cards/v1/vcns`, { method });
        expect(res.status, method).toBe(404);
      }
    } finally {
      await off.close();
    }
  });

  it('when a path parameter is not valid percent-encoding, then 400, never 5xx', async () => {
    const res = await call('GET', '/cost-centers/v1/cost-centers/%E0%A4%A', acme.token);
    expect(res.status).toBe(400);
  });
});

describe('HEAD', () => {
  const gets = operations.filter((op: ContractOperation) => op.method === 'GET');

  it('when every GET of the contract is called as HEAD, then the same status and headers as the GET, and no body', async () => {
    expect(gets.length).toBeGreaterThan(15);
    for (const op of gets) {
      const path = concrete(op.path);
      const get = await call('GET', path, acme.token);
      const head = await call('HEAD', path, acme.token);
      expect(head.status, `HEAD ${path}`).toBe(get.status);
      expect(head.text, `HEAD ${path}`).toBe('');
      expect(head.headers.get('content-type'), `HEAD ${path}`).toBe(get.headers.get('content-type'));
      if (get.status === 200 && get.headers.get('content-type')?.startsWith('application/json'))
        expect(head.headers.get('content-length'), `HEAD ${path}`).toBe(String(Buffer.byteLength(get.text)));
    }
  }, 120_000);

  it('when HEAD is sent without a token, then 401 as the GET', async () => {
    const res = await call('HEAD', '/cost-centers/v1/cost-centers');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});
