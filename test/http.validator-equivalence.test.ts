import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, loadBundle } from '../server/contract/index.js';
import {
  ALL_ERRORS_MAX_BYTES,
  contractValidator,
  recordBodySize,
  validatorOptions,
} from '../server/http/validator/validator.js';
import { onlyLocalRefs, stockLoadedSpec } from '../server/http/validator/adapter.js';
import { loopbackApps, matched } from './support/validator-apps.js';
import { candidatesOf, operationsOf, requestOf, unsent, type Candidate } from './support/hostile.js';
import { digestOf, recorded, remember, stockKey } from './support/stock-verdicts.js';

const SEEDS = [1, 2];
const MALFORMED_URI = "malformed uri'";
const UPLOAD_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'];
const config = { validateResponses: false };

function appWith(validator: RequestHandler[]): express.Express {
  const app = express();
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use(express.json({ limit: '1mb', verify: recordBodySize }));
  app.use(express.urlencoded({ extended: false, limit: '16kb', verify: recordBodySize }));
  app.use(express.raw({ type: UPLOAD_TYPES, limit: 10 * 1024 * 1024 }));
  app.use(...validator);
  app.use((req: Request, res: Response) => {
    res.json({ accepted: true, query: req.query, body: Buffer.isBuffer(req.body) ? 'bytes' : (req.body ?? null) });
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
        .json({ accepted: false, status: err.status, message: err.message, errors: err.errors ?? null });
    },
  );
  return app;
}

/** The stock middleware, one configured for every problem and one for the first, chosen by body size as ours. */
function stock(): RequestHandler {
  const all = OpenApiValidator.middleware(validatorOptions(contract(), config, true));
  const first = OpenApiValidator.middleware(validatorOptions(contract(), config, false));
  const run = (steps: RequestHandler[], req: Request, res: Response, next: NextFunction, i = 0): void => {
    const step = steps[i];
    if (!step) return next();
    void step(req, res, (err?: unknown) => (err ? next(err) : run(steps, req, res, next, i + 1)));
  };
  return (req, res, next) => {
    const bytes = (req as Request & { bodyBytes?: number }).bodyBytes ?? 0;
    run(bytes > ALL_ERRORS_MAX_BYTES ? first : all, req, res, next);
  };
}

const apps = loopbackApps();
const listen = apps.listen;
let ours = '';
/** The stock side, started when a seed's stock answers are not recorded (test/support/stock-verdicts.ts). */
let theirs: Promise<string> | undefined;
const stockSide = () => (theirs ??= listen(appWith([stock()])));

beforeAll(async () => {
  ours = await listen(appWith([matched(contract()), contractValidator(contract(), config)]));
}, 60_000);
afterAll(async () => {
  await apps.close();
});

async function verdict(baseUrl: string, c: Candidate): Promise<Record<string, unknown>> {
  try {
    const res = await fetch(`${baseUrl}${c.path}${c.query ? `?${c.query}` : ''}`, {
      method: c.method,
      headers: c.headers,
      body: c.body,
    });
    return { status: res.status, ...((await res.json()) as object) };
  } catch (error) {
    // A body refused before it was read (413) can reset the connection under the client's feet.
    return { reset: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
  }
}

const operations = operationsOf(loadBundle('internal'));
/** The candidates' requests sent so far, by every seed. */
const sent = new Set<string>();
/** Real-looking ids are not needed: without a store, any id the contract allows is as good. */
const ids = () => undefined;

/** The operation's example request: its candidate with unknown query parameters, less those. */
function exampleRequest(c: Candidate): Candidate {
  const query = c.query
    .split('&')
    .filter((part) => part && !part.startsWith('__proto__') && !part.startsWith('unknown='))
    .join('&');
  return { ...c, label: 'example request', query };
}

/** Every request's answer from `baseUrl`, in request order; eight in flight (no answer depends on the order). */
async function askAll(baseUrl: string, requests: Candidate[]): Promise<Array<Record<string, unknown>>> {
  const answers: Array<Record<string, unknown>> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < requests.length) {
        const i = next++;
        answers[i] = await verdict(baseUrl, requests[i]!);
      }
    }),
  );
  return answers;
}

/** An answer as compared: whole, or (`loose`) its status and acceptance only. */
const comparable = (answer: Record<string, unknown>, loose: boolean): unknown =>
  loose ? [answer.status, answer.accepted] : answer;

describe('the validator as driven here and the stock middleware', () => {
  it('when the stock loader bundles the contract, then it returns it unchanged (the engine skips that bundle)', async () => {
    const spec = contract().validatorSpec();
    expect(onlyLocalRefs(spec)).toBe(true);
    expect(onlyLocalRefs({ paths: { '/a': { $ref: 'other.yaml#/paths/a' } } })).toBe(false);
    // The loader sorts the tags by name after bundling (the engine too).
    const withoutTags = ({ tags: _tags, ...rest }: Record<string, unknown>) => rest;
    expect(withoutTags((await stockLoadedSpec(contract().validatorSpec())) as Record<string, unknown>)).toEqual(
      withoutTags(spec),
    );
  });

  it('when the contract is read, then every operation has candidates', () => {
    expect(operations.length).toBe(contract().operations.length);
  });

  it.each(SEEDS)(
    'when every operation gets its example request and its hostile candidates (seed %i), then both give the same verdict',
    async (seed) => {
      // Each seed sends the example requests, and the candidates no earlier seed sent.
      const requests = operations.flatMap((op) => {
        const candidates = candidatesOf(op, ids, seed);
        const unknown = candidates.find((c) => c.label === 'unknown query parameter');
        return [...(unknown ? [exampleRequest(unknown)] : []), ...unsent(candidates, sent)];
      });
      const answers = await askAll(ours, requests);
      expect(answers.length).toBeGreaterThan(1000);
      expect(answers.filter((a) => a.accepted).length).toBeGreaterThan(operations.length / 2);

      const name = `validator-equivalence-seed-${seed}`;
      const key = stockKey(import.meta.url, [
        contract().validatorSpec(),
        validatorOptions(contract(), config, true),
        validatorOptions(contract(), config, false),
        ALL_ERRORS_MAX_BYTES,
        requests.map(requestOf),
      ]);
      const record = recorded(name, key);
      const partial = new Set(record?.partial);
      if (record && digestOf(answers.map((a, i) => comparable(a, partial.has(i)))) === record.digest) return;

      // Not recorded, or not what was recorded: the stock middleware is asked, and each difference named.
      const stockAnswers = await askAll(await stockSide(), requests);
      const problems: string[] = [];
      stockAnswers.forEach((b, i) => {
        const a = answers[i]!;
        // A path parameter that is not valid percent-encoding never reaches our validator: the
        // match refuses it (400, in our words). The stock middleware's lookup refuses it too.
        const loose = b.message === MALFORMED_URI;
        try {
          expect(comparable(a, loose)).toEqual(comparable(b, loose));
        } catch {
          const c = requests[i]!;
          if (process.env.EQUIVALENCE_REPORT)
            console.log(c.operation.operationId, c.label, JSON.stringify(a), JSON.stringify(b));
          problems.push(
            `${c.operation.operationId} [${c.label}]\n  ours:  ${JSON.stringify(a).slice(0, 300)}\n  stock: ${JSON.stringify(b).slice(0, 300)}`,
          );
        }
      });
      expect(problems, `${problems.length} of ${requests.length} differ:\n${problems.slice(0, 20).join('\n')}`).toEqual(
        [],
      );
      const loose = stockAnswers.flatMap((b, i) => (b.message === MALFORMED_URI ? [i] : []));
      remember(name, {
        key,
        digest: digestOf(stockAnswers.map((b) => comparable(b, b.message === MALFORMED_URI))),
        count: stockAnswers.length,
        partial: loose,
      });
    },
    240_000,
  );
});
