import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, loadBundle } from '../server/contract/index.js';
import { contractValidator, validatorOptions } from '../server/http/validator/validator.js';
import { loopbackApps, matched } from './support/validator-apps.js';
import { candidatesOf, operationsOf, requestOf, type Candidate, type Json } from './support/hostile.js';
import { digestOf, recorded, remember, stockKey } from './support/stock-verdicts.js';

const config = { validateResponses: true };
const ANSWER = 'x-test-answer';

function appWith(validator: RequestHandler[]): express.Express {
  const app = express();
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false }));
  app.use(express.raw({ type: ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'], limit: 10 << 20 }));
  app.use(...validator);
  app.use((req: Request, res: Response) => {
    const { status, body } = JSON.parse(Buffer.from(String(req.headers[ANSWER]), 'base64url').toString()) as {
      status: number;
      body: unknown;
    };
    res.status(status).json(body);
  });
  app.use(
    (
      err: { status?: number; message?: string; errors?: unknown[] },
      _req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      res
        .status(err.status ?? 500)
        .json({ refused: true, status: err.status, message: err.message, errors: err.errors ?? null });
    },
  );
  return app;
}

const apps = loopbackApps();
const listen = apps.listen;
let ours = '';

beforeAll(async () => {
  ours = await listen(appWith([matched(contract()), contractValidator(contract(), config)]));
}, 60_000);
afterAll(async () => {
  await apps.close();
});

/** The declared JSON examples of an operation's answers: [status, example]. */
function examplesOf(responses: Record<string, Json>): Array<[number, unknown]> {
  const out: Array<[number, unknown]> = [];
  for (const [code, response] of Object.entries(responses)) {
    if (!/^\d{3}$/.test(code)) continue;
    const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
    if (!media) continue;
    const examples = media.examples as Record<string, { value?: unknown }> | undefined;
    const example = media.example ?? Object.values(examples ?? {})[0]?.value;
    if (example !== undefined) out.push([Number(code), example]);
  }
  return out;
}

/** The example with its schema's first required property removed (undefined when there is none to remove). */
function lessARequired(example: unknown, schema: Json | undefined): unknown {
  const required = (schema?.required as string[] | undefined)?.find(
    (name) => example && typeof example === 'object' && name in example,
  );
  if (!required) return undefined;
  const { [required]: _dropped, ...rest } = example as Json;
  return rest;
}

async function verdict(baseUrl: string, c: Candidate, status: number, body: unknown) {
  const res = await fetch(`${baseUrl}${c.path}${c.query ? `?${c.query}` : ''}`, {
    method: c.method,
    headers: { ...c.headers, [ANSWER]: Buffer.from(JSON.stringify({ status, body })).toString('base64url') },
    body: c.body,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
}

describe('answers checked against the contract, as the stock middleware checks them', () => {
  it('when every operation answers its examples, each less a required property and a bare string, then both give the same verdict', async () => {
    // Every fourth operation (lists, items, writes and their errors; the stock side takes ~0.4 s to
    // build each operation's checks, the cost this file's subject removes).
    const cases: Array<{ request: Candidate; status: number; body: unknown }> = [];
    for (const op of operationsOf(loadBundle('internal')).filter((_, i) => i % 4 === 0)) {
      const unknown = candidatesOf(op, () => undefined, 1).find((c) => c.label === 'unknown query parameter');
      if (!unknown) continue;
      const request = {
        ...unknown,
        query: unknown.query
          .split('&')
          .filter((p) => p && !p.startsWith('__proto__') && !p.startsWith('unknown='))
          .join('&'),
      };
      for (const [status, example] of examplesOf(op.responses)) {
        const schema = (op.responses[String(status)]?.content as Record<string, Json> | undefined)?.['application/json']
          ?.schema as Json | undefined;
        for (const body of [example, lessARequired(example, schema), 'not the declared answer'])
          if (body !== undefined) cases.push({ request, status, body });
      }
    }
    const answers = await Promise.all(cases.map((c) => verdict(ours, c.request, c.status, c.body)));
    // Both sides agree, and agree on something: the examples pass, the broken answers are caught.
    expect(answers.filter((a) => a.status !== 500).length).toBeGreaterThan(15);
    expect(answers.filter((a) => a.status === 500).length).toBeGreaterThan(15);

    // The stock middleware's answers, recorded (test/support/stock-verdicts.ts) or asked.
    const name = 'response-validation';
    const key = stockKey(import.meta.url, [
      validatorOptions(contract(), config, true),
      cases.map((c) => [requestOf(c.request), c.status, c.body]),
    ]);
    const record = recorded(name, key);
    if (record && digestOf(answers) === record.digest) return;
    const theirs = await listen(
      appWith([OpenApiValidator.middleware(validatorOptions(contract(), config, true))].flat()),
    );
    const stockAnswers: Array<Awaited<ReturnType<typeof verdict>>> = [];
    for (const c of cases) stockAnswers.push(await verdict(theirs, c.request, c.status, c.body));
    const problems = cases.flatMap((c, i) => {
      const [a, b] = [answers[i], stockAnswers[i]];
      try {
        expect(a).toEqual(b);
        return [];
      } catch {
        return [
          `${c.request.operation.operationId} ${c.status} ${JSON.stringify(c.body).slice(0, 80)}\n  ours:  ${JSON.stringify(a).slice(0, 300)}\n  stock: ${JSON.stringify(b).slice(0, 300)}`,
        ];
      }
    });
    expect(problems, `${problems.length} differ:\n${problems.slice(0, 10).join('\n')}`).toEqual([]);
    remember(name, { key, digest: digestOf(stockAnswers), count: stockAnswers.length });
  }, 120_000);
});
