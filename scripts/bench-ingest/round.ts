// One round of `npm run bench:ingest`: a checkout's compiled `finance serve` on a fresh SQLite file,
// driven by load.ts, first alone and then while that checkout's `finance ingest` loads a file in a
// process of its own, as an operator runs them. Everything goes through the checkout's command and
// its HTTP API, so any checkout can be measured (`--baseline DIR`). The run's state is polled from
// the file meanwhile (read-only), so each slow call is placed in the ingest's phases.
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { productionEnv, ready } from '../bench-http/setup.js';
import { load, type Call, type Target } from './load.js';

const exec = promisify(execFile);

interface RoundOptions {
  checkout: string;
  dir: string;
  name: string;
  lines: number;
  clients: number;
  workers: number;
  port: number;
  quietSeconds: number;
}

export interface RoundResult {
  quiet: Call[];
  beside: Call[];
  ingestMs: number;
  /** The run's states as the poll saw them change, ms after the ingest started. */
  phases: Array<{ at: number; state: string }>;
}

/** A banking line of the ingested file, as `finance ingest` reads it. */
const line = (accountId: number, i: number) =>
  JSON.stringify({
    statement: 'banking',
    transaction: {
      transactionType: { id: 8, description: 'Compra nacional', icon: 'cart', subType: i % 3 ? 'DEBIT' : 'CREDIT' },
      status: 2,
      accountId,
      finalCardNumber: '4021',
      bearerName: 'MARIANA COSTA',
      transactionDate: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(),
      brlAmount: (i % 5000) + 0.5,
      usdAmount: null,
      usdExchangeRate: null,
      usdExchangeRateDate: null,
      totalTransactionAmount: (i % 5000) + 0.5,
      iofAmount: 0,
      feeServiceAmount: 0,
      mccCode: 5411,
      mccGroup: 1,
      mccDescription: 'Supermercados',
      idPurchaseEvent: i,
      sourceDestinationName: 'MERCADO',
      placeEstablishment: 'SAO PAULO - BR',
      description: `MERCADO ${i}`,
      notes: '',
      conciliation: { description: 'Not reconciled', conciled: false },
      category: { id: 'FOOD', description: 'Alimentação' },
      costCenter: null,
      user: null,
      requesterUser: null,
      customCategory: null,
    },
  });

/** The state of the newest ingest run: its status, and whether its created events are still being recorded. */
function pollPhases(file: string, started: number) {
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  const read = reader.prepare(
    `select status || case when events_seq is not null then ' (events)' else '' end as state
       from ingest_runs order by started_at desc, id desc limit 1`,
  );
  const phases: RoundResult['phases'] = [];
  const timer = setInterval(() => {
    const state = (read.get() as { state: string } | undefined)?.state ?? 'checking';
    if (phases.at(-1)?.state !== state) phases.push({ at: performance.now() - started, state });
  }, 5);
  return {
    phases,
    stop: () => {
      clearInterval(timer);
      reader.close();
    },
  };
}

export async function runRound(o: RoundOptions): Promise<RoundResult> {
  const file = join(o.dir, `${o.name}.sqlite`);
  const finance = join(o.checkout, 'bin/finance.js');
  const cli = async (args: string[]) =>
    JSON.parse(
      (await exec(process.execPath, [finance, ...args, '--db', file, '--json'], { maxBuffer: 1 << 26 })).stdout,
    );
  const company = await cli(['company', 'create', '--name', 'Bench Ingest Ltda']);
  await cli(['seed', '--company', company.companyId, '--transactions', '2000']);

  // No load shedding (its answer would hide the wait being measured) and no drain on stop.
  const env = { ...process.env, ...productionEnv(o.dir), OVERLOAD_MAX_LAG_MS: '0', SHUTDOWN_DRAIN_MS: '0' };
  const args = [finance, 'serve', '--db', file, '--port', String(o.port), '--workers', String(o.workers)];
  const server = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await ready({ name: o.name, port: o.port, child: server });
    const baseUrl = `http://127.0.0.1:${o.port}`;
    const grant = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${company.clientId}:${company.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = (await grant.json()) as { access_token: string };
    const page = await fetch(`${baseUrl}/statements/v1/banking?limit=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await page.json()) as { transactions?: Array<{ id: number; accountId: number }> };
    if (!body.transactions)
      throw new Error(`${o.name}: the banking list answered ${page.status} ${JSON.stringify(body)}`);
    const transactions = body.transactions;
    const target: Target = { baseUrl, token, ids: transactions.map((t) => t.id) };

    const lines = join(o.dir, `${o.name}.jsonl`);
    const accountId = transactions[0]!.accountId;
    writeFileSync(lines, `${Array.from({ length: o.lines }, (_, i) => line(accountId, i)).join('\n')}\n`);

    const quietUntil = performance.now() + o.quietSeconds * 1000;
    const quiet = await load(target, o.clients, () => performance.now() >= quietUntil);

    let done = false;
    const started = performance.now();
    const poll = pollPhases(file, started);
    const ingest = exec(
      process.execPath,
      [finance, 'ingest', '--company', company.companyId, '--file', lines, '--db', file, '--json'],
      { env: { ...process.env, LOG_LEVEL: 'silent' }, maxBuffer: 1 << 24 },
    ).finally(() => {
      done = true;
    });
    const beside = await load(target, o.clients, () => done);
    const { stdout } = await ingest;
    const ingestMs = performance.now() - started;
    poll.stop();
    const counts = JSON.parse(stdout) as { banking: number };
    if (counts.banking !== o.lines) throw new Error(`${o.name}: ${counts.banking} of ${o.lines} lines ingested`);
    for (const c of beside) c.at -= started;
    return { quiet, beside, ingestMs, phases: poll.phases };
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  }
}
