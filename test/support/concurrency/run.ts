// One run of the checker on a serving process: read the statements, run the seed's plan, let the
// ledgers catch up once every write is answered, read the statements again, and judge.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onPostgres } from '../database.js';
import { check, type Violation } from './checker.js';
import { runPlan } from './driver.js';
import { History, type Statement } from './history.js';
import { Http } from './http.js';
import { Ledger, listAll } from './ledger.js';
import { HOT_ROWS, planFor, type Plan } from './plan.js';
import type { Target } from './target.js';

interface RunReport {
  seed: number;
  plan: Plan;
  history: History;
  violations: Violation[];
}

const both = async <T>(read: (s: Statement) => Promise<T>): Promise<Record<Statement, T>> => {
  const [banking, creditCard] = await Promise.all([read('banking'), read('credit-card')]);
  return { banking, 'credit-card': creditCard };
};

/** The PATCHes need HOT_ROWS rows in each statement: a new company gets them from the sandbox. */
async function ensureRows(http: Http, statement: Statement): Promise<void> {
  const page = await http.send({ method: 'GET', path: `/statements/v1/${statement}?limit=${HOT_ROWS}` });
  if (page.kind === 'answer' && (page.body as { transactions: unknown[] }).transactions.length >= HOT_ROWS) return;
  const item = (i: number) => (statement === 'banking' ? { brlAmount: 100 + i } : { amount: 100 + i });
  const created = await http.send({
    method: 'POST',
    path: `/sandbox/v1/${statement}-transactions`,
    body: { transactions: Array.from({ length: HOT_ROWS }, (_, i) => item(i)) },
  });
  if (created.kind !== 'answer' || created.status !== 201)
    throw new Error(`could not create the ${statement} rows: ${JSON.stringify(created)}`);
}

export async function checkRun(target: Target, seed: number, length: number): Promise<RunReport> {
  const http = new Http(target);
  const history = new History();
  try {
    await both((s) => ensureRows(http, s));
    const before = await both((s) => listAll(http, s));
    const hot = {
      banking: [...before.banking.keys()].slice(0, HOT_ROWS),
      'credit-card': [...before['credit-card'].keys()].slice(0, HOT_ROWS),
    };
    const categories = await http.send({ method: 'GET', path: '/categories/v1/categories?limit=100' });
    if (categories.kind !== 'answer' || categories.status !== 200) throw new Error('the categories could not be read');
    const ledgers = { banking: new Ledger('banking'), 'credit-card': new Ledger('credit-card') };
    const plan = planFor(seed, length);
    const creates = await runPlan(plan, {
      tag: `chk-${seed}`,
      target,
      http,
      history,
      hot,
      categories: (categories.body as { items: Array<{ id: number }> }).items.map((c) => c.id),
      ledgers,
    });
    await both((s) => ledgers[s].catchUp(http, 500));
    const after = await both((s) => listAll(http, s));
    const violations = check({
      history,
      creates,
      before,
      after,
      ledgers: { banking: ledgers.banking.rows, 'credit-card': ledgers['credit-card'].rows },
    });
    return { seed, plan, history, violations };
  } finally {
    await http.close();
  }
}

/** What a failing run prints: the seed, each violated property with its first cases, where the whole history is. */
export function describeFailure(report: RunReport, dir: string): string {
  const file = join(dir, `history-${report.seed}.json`);
  writeFileSync(file, JSON.stringify({ seed: report.seed, plan: report.plan, history: report.history }, null, 1));
  const byProperty = new Map<string, string[]>();
  for (const { property, detail } of report.violations)
    byProperty.set(property, [...(byProperty.get(property) ?? []), detail]);
  const lines = [`seed ${report.seed}: ${[...byProperty.keys()].join(', ')} violated`];
  for (const [property, details] of byProperty) {
    lines.push(`  ${property} (${details.length}):`);
    for (const detail of details.slice(0, 3)) lines.push(`    ${detail}`);
  }
  lines.push(
    `  crashes: ${report.history.crashes.map((c) => `at ${c.at} ms (${c.inFlight.length} keyed writes in flight), back at ${c.restartedAt} ms`).join('; ')}`,
  );
  lines.push(`  history: ${file}`);
  const store = onPostgres ? 'TEST_DATABASE=postgres ' : '';
  lines.push(
    `  replay: ${store}CHECKER_SEED=${report.seed} CHECKER_RUNS=1 npx vitest run test/concurrency.checker.test.ts`,
  );
  return lines.join('\n');
}
