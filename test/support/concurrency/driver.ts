// Runs a plan: its operations spread over `plan.clients` clients sending at once, each client's in
// order, while a crasher kills the process when the plan says (once a keyed write is in flight) and
// starts it again. Every attempt goes into the history.
import type { Answer, Call, Http } from './http.js';
import type { History, Precondition, Statement } from './history.js';
import { ReadFailure, type Ledger } from './ledger.js';
import type { Op, Plan } from './plan.js';
import type { Target } from './target.js';

/** How long a keyed write is retried once the process is up: a crashed claim must be recoverable within seconds. */
export const RECOVERY_MS = 30_000;

interface RunContext {
  /** Marks this run's keys and rows (`chk-<seed>`). */
  tag: string;
  target: Target;
  http: Http;
  history: History;
  /** The rows the PATCHes aim at, by statement. */
  hot: Record<Statement, string[]>;
  categories: number[];
  ledgers: Record<Statement, Ledger>;
}

/** A keyed create of the plan: its key, and the marker (description) of each transaction it carries. */
export interface KeyedCreate {
  key: string;
  statement: Statement;
  markers: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean, timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
  for (const start = performance.now(); !done() && performance.now() - start < timeoutMs; ) await sleep(1);
}

const itemPath = (statement: Statement, id: string) => `/statements/v1/${statement}/${id}`;
const wireId = (statement: Statement, id: string) => (statement === 'banking' ? Number(id) : id);

export async function runPlan(plan: Plan, ctx: RunContext): Promise<KeyedCreate[]> {
  const creates: KeyedCreate[] = [];
  let started = 0;
  let finished = false;
  const client = async (c: number) => {
    for (let i = c; i < plan.ops.length; i += plan.clients) {
      await sleep(plan.pausesMs[i]!);
      started++;
      await runOp(plan.ops[i]!, i, c, ctx, creates);
    }
  };
  const crasher = async () => {
    for (const crash of plan.crashes) {
      await until(() => started > crash.afterOps || finished);
      await until(() => ctx.history.inFlight.size > 0 || finished, 3_000);
      await sleep(crash.delayMs);
      const at = ctx.history.now();
      const inFlight = [...ctx.history.inFlight.keys()];
      await ctx.target.crash();
      ctx.history.crashes.push({ at, inFlight, restartedAt: ctx.history.now() });
    }
  };
  const crashing = crasher();
  await Promise.all(Array.from({ length: plan.clients }, (_, c) => client(c)));
  finished = true;
  await crashing;
  return creates;
}

function runOp(op: Op, index: number, client: number, ctx: RunContext, creates: KeyedCreate[]): Promise<unknown> {
  switch (op.kind) {
    case 'create': {
      const key = `${ctx.tag}-${index}`;
      const markers = Array.from({ length: op.batch ? op.size : 1 }, (_, i) => `${key}-${i}`);
      creates.push({ key, statement: op.statement, markers });
      const amount = (i: number) => 10 + ((index * 7 + i) % 90) + 0.25;
      const item = (marker: string, i: number) =>
        op.statement === 'banking'
          ? { brlAmount: amount(i), description: marker }
          : { amount: amount(i), description: marker };
      const call: Call = {
        method: 'POST',
        path: `/sandbox/v1/${op.statement}-transactions`,
        headers: { 'Idempotency-Key': key },
        body: op.batch ? { transactions: markers.map(item) } : item(markers[0]!, 0),
      };
      const what = `create ${op.statement}${op.batch ? ` batch of ${op.size}` : ''}`;
      return Promise.all(
        Array.from({ length: op.twins }, (_, twin) =>
          untilAnswered(ctx, { op: index, client, what, key }, call, twin === 0 ? [...op.abandons] : []),
        ),
      );
    }
    case 'patch':
    case 'batch':
      return race(op, index, client, ctx);
    case 'feed': {
      const start = ctx.history.now();
      const generation = ctx.target.crashes;
      return ctx.ledgers[op.statement].catchUp(ctx.http, op.limit).catch((err: unknown) => {
        if (!(err instanceof ReadFailure)) throw err;
        ctx.history.record({ op: index, client, what: err.what, generation, start }, err.answer);
      });
    }
  }
}

/** Sends a keyed write until it is answered: abandoned first as `abandons` says, then retried with the same key and body. */
async function untilAnswered(
  { history, http, target }: RunContext,
  attempt: { op: number; client: number; what: string; key: string },
  call: Call,
  abandons: number[],
): Promise<void> {
  const opStart = performance.now();
  for (;;) {
    const start = history.now();
    const generation = target.crashes;
    const answer = await history.inFlightAs(attempt.key, () => http.send(call, abandons.shift()));
    const entry = history.record({ ...attempt, generation, start }, answer, createdIds(answer));
    const { outcome } = entry;
    if (outcome === 201) return;
    const retry =
      outcome === 'abandoned' ||
      outcome === 'network' ||
      outcome === 503 ||
      (outcome === 409 && entry.reason === 'idempotency_key_in_use');
    if (!retry) return;
    if (target.up && performance.now() - Math.max(opStart, target.upSince) > RECOVERY_MS) return;
    const retryAfter = Number(entry.retryAfter);
    await sleep(
      outcome === 'abandoned' ? 0 : outcome === 'network' ? 100 : retryAfter > 0 ? Math.min(retryAfter, 5) * 1000 : 250,
    );
  }
}

function createdIds(answer: Answer): string[] | undefined {
  if (answer.kind !== 'answer' || answer.status !== 201) return undefined;
  const body = answer.body as { id?: unknown; transactions?: Array<{ id: unknown }> };
  return body.transactions ? body.transactions.map((t) => String(t.id)) : [String(body.id)];
}

/** Racing writers: the rows' ETags read once, then every racer sent at once with them. */
async function race(op: Extract<Op, { kind: 'patch' | 'batch' }>, index: number, client: number, ctx: RunContext) {
  const { history, http, target } = ctx;
  const ids = (op.kind === 'patch' ? [op.row] : op.rows).map((row) => ctx.hot[op.statement][row]!);
  const reads = await Promise.all(
    ids.map(async (id) => {
      const start = history.now();
      const generation = target.crashes;
      const answer = await http.send({ method: 'GET', path: itemPath(op.statement, id) });
      history.record({ op: index, client, what: `read ${op.statement} ${id}`, generation, start }, answer);
      return answer.kind === 'answer' && answer.status === 200 ? answer.headers.get('etag') : null;
    }),
  );
  if (reads.some((etag) => !etag)) return;
  const tags = reads as string[];
  const notes = (r: number) => `${ctx.tag}-${index}-${r}`;
  const racers = Array.from({ length: op.racers }, (_, r) => {
    if (op.kind === 'batch') {
      const items = ids.map((id, j) => ({
        id: wireId(op.statement, id),
        ifMatch: tags[j]!,
        notes: `${notes(r)}-${j}`,
      }));
      return {
        call: { method: 'PATCH', path: `/statements/v1/${op.statement}`, body: { transactions: items } } as Call,
        preconditions: ids.map((id, j): Precondition => ({ statement: op.statement, id, etag: tags[j]! })),
      };
    }
    const category = ctx.categories[(index + r) % ctx.categories.length]!;
    return {
      call: {
        method: 'PATCH',
        path: itemPath(op.statement, ids[0]!),
        headers: op.ifMatch ? { 'If-Match': tags[0]! } : {},
        body: { notes: notes(r), ...(op.category ? { categoryId: category } : {}) },
      } as Call,
      preconditions: op.ifMatch ? [{ statement: op.statement, id: ids[0]!, etag: tags[0]! }] : undefined,
    };
  });
  const what = op.kind === 'batch' ? `batch PATCH ${op.statement} ${ids.join(',')}` : `PATCH ${op.statement} ${ids[0]}`;
  await Promise.all(
    racers.map(async ({ call, preconditions }) => {
      const start = history.now();
      const generation = target.crashes;
      const answer = await http.send(call);
      history.record(
        { op: index, client, what, generation, start, ...(preconditions ? { preconditions } : {}) },
        answer,
      );
    }),
  );
}
