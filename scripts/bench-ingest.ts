// Benchmark of an ingest run's closing transaction (server/areas/statements/store/ingest-runs.ts):
// how long it holds the write lock while it moves a run's staged rows into the statement tables,
// as a ratio to the baseline measured in the same run — one 1,000-row chunk inserted straight into
// the statement tables, the longest hold of the previous design, which published chunk by chunk.
// Two figures: the closing transaction (the move with its balances: the whole hold of `finance ingest`,
// its line keys, a small part, left out), and the longest of the transactions that record the rows'
// created events after it, a chunk of 1,000 rows each (store/ingest-events.ts).
// Usage: npm run bench:ingest [-- --rows 40000 --db FILE|postgres://…] (default: a temporary SQLite file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../server/db/store.js';
import { writeTransaction } from '../server/db/transaction.js';
import { createCompany } from '../server/areas/auth/store.js';
import { ManualClock } from '../server/lib/clock.js';
import { publishIngest } from '../server/areas/statements/store/ingest-runs.js';
import { insertBankingTransactions } from '../server/areas/statements/store/insert.js';
import type { NewBankingTransaction } from '../server/areas/statements/tables.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ROWS = Number(arg('rows') ?? 40_000);
const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
const { db } = await openStore(arg('db') ?? join(dir, 'finance.sqlite'));
const clock = new ManualClock('2026-11-20T15:00:00Z');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const companyId = await createCompany(db, clock, { name: 'Bench Ingest Ltda' });
  const { id: accountId } = await db
    .insertInto('accounts')
    .values({
      company_id: companyId,
      name: 'Conta',
      bank_code: '341',
      bank_name: 'Itaú Unibanco',
      branch: '0912',
      number: '40000-1',
      currency: 'BRL',
      opening_balance_minor: 0,
      balance_minor: 0,
      blocked_minor: 0,
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let n = 0;
  const row = (): NewBankingTransaction => {
    n += 1;
    const brl = 1000 + (n % 50_000);
    return {
      company_id: companyId,
      account_id: accountId,
      transaction_type_id: 8,
      transaction_type_description: 'Compra nacional',
      transaction_type_icon: 'cart',
      sub_type: n % 3 ? 'DEBIT' : 'CREDIT',
      status: ((n % 3) + 1) as 1 | 2 | 3,
      final_card_number: '4021',
      bearer_name: 'MARIANA COSTA',
      transaction_date: new Date(Date.UTC(2026, 9, 1) + n * 60_000).toISOString(),
      brl_amount_minor: brl,
      usd_amount_minor: null,
      usd_exchange_rate: null,
      usd_exchange_rate_date: null,
      total_amount_minor: brl,
      iof_amount_minor: 0,
      fee_service_amount_minor: 0,
      mcc_code: 5411,
      mcc_group: 1,
      mcc_description: 'Supermercados',
      id_purchase_event: n,
      source_destination_name: 'MERCADO',
      place_establishment: 'SAO PAULO - BR',
      description: `MERCADO ${n}`,
      notes: '',
      conciled: 0,
      conciled_at: null,
      category_code: 'FOOD',
      category_description: 'Alimentação',
      custom_category_id: null,
      cost_center_id: null,
      user_id: null,
      requester_user_id: null,
      has_attachments: 0,
      created_at: clock.now().toISOString(),
    };
  };

  // Baseline: the previous design's publishing chunk, five times (the table grows as it would).
  const chunks: number[] = [];
  for (let k = 0; k < 5; k++) {
    const chunk = Array.from({ length: 1_000 }, row);
    const started = performance.now();
    await writeTransaction(db, (trx) => insertBankingTransactions(trx, chunk, clock.now()));
    chunks.push(performance.now() - started);
  }

  const rows = Array.from({ length: ROWS }, row);
  let closingStarted = 0;
  let moved = 0;
  const eventChunks: number[] = [];
  const started = performance.now();
  await publishIngest(
    db,
    companyId,
    rows,
    [],
    clock.now(),
    () => {
      closingStarted = performance.now();
    },
    async () => {
      moved = performance.now();
    },
    { onChunk: (_chunks, ms) => void eventChunks.push(ms) },
  );
  const total = performance.now() - started;
  const baseline = median(chunks);
  const closing = moved - closingStarted;
  const longest = Math.max(...eventChunks);
  process.stdout.write(
    [
      `Ingest of ${ROWS.toLocaleString('en')} banking rows (${arg('db')?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'})`,
      '| measure | ms | ratio to baseline |',
      '| --- | ---: | ---: |',
      `| baseline: one 1,000-row chunk into the statement tables (median of 5) | ${baseline.toFixed(0)} | 1.00 |`,
      `| closing transaction: move + balances (the write-lock hold of \`finance ingest\`) | ${closing.toFixed(0)} | ${(closing / baseline).toFixed(2)} |`,
      `| longest of ${eventChunks.length} created-event transactions (1,000 rows each), after the closing one | ${longest.toFixed(0)} | ${(longest / baseline).toFixed(2)} |`,
      `| whole run (checking excluded: staging, closing, clean-up) | ${total.toFixed(0)} | ${(total / baseline).toFixed(2)} |`,
      '',
    ].join('\n'),
  );
} finally {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
