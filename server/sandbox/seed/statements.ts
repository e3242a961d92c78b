// `finance seed` for statements: accounts, a banking statement of ctx.transactions rows (with some
// uploaded receipts), the credit-card statement of the company's cards and its bills. Deterministic
// from ctx.rng; everything is written in one transaction, in batches.
import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { companyTimeZone } from '../../areas/auth/company-zone.js';
import type { SeedContext } from './seed-context.js';
import { TRANSACTION_TYPES, type TransactionType } from './statements/catalog.js';
import { insertBankingTransactions, insertCreditCardTransactions } from '../../areas/statements/store/insert.js';
import { attachSeedFiles, fundAccounts, insertAccounts, payPastBills, seedPools } from './statements/support.js';
import { instants, type Card, type Generator } from './statements/context.js';
import { bankingRow } from './statements/banking.js';
import { creditCardRows } from './statements/credit-card.js';
import { insertSeededCards, seededCards } from './statements/cards.js';
import { seededUuid } from './statements/ids.js';
import { localDate } from '../../lib/time.js';
import { writeTransaction } from '../../db/transaction.js';
import { chunks } from '../../lib/chunks.js';

const BATCH = 5_000;
const HISTORY_DAYS = 730;

const ACCOUNTS = [
  { name: 'Conta corrente - operações', bank_code: '341', bank_name: 'Itaú Unibanco', branch: '0912' },
  { name: 'Conta pagamentos', bank_code: '001', bank_name: 'Banco do Brasil', branch: '3274' },
  { name: 'Conta cartões corporativos', bank_code: '237', bank_name: 'Bradesco', branch: '1520' },
];

/** A tiny but valid one-page PDF standing in for an uploaded invoice. */
function invoicePdf(n: number): Buffer {
  const text = `(Nota fiscal de servicos eletronica no ${1000 + n}) Tj`;
  const stream = `BT /F1 14 Tf 72 760 Td ${text} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export async function seedStatements(db: Db, ctx: SeedContext): Promise<void> {
  const { rng, companyId } = ctx;
  const now = ctx.clock.now();
  const timeZone = await companyTimeZone(db, companyId);
  if (timeZone === undefined) throw new Error(`no company ${companyId}`);
  const pools = await seedPools(db, companyId);
  if (pools.accounts.length === 0) {
    pools.accounts = await insertAccounts(
      db,
      ACCOUNTS.map((a) => ({
        company_id: companyId,
        name: a.name,
        bank_code: a.bank_code,
        bank_name: a.bank_name,
        branch: a.branch,
        number: `${rng.int(10_000, 99_999)}-${rng.int(0, 9)}`,
        currency: 'BRL',
        opening_balance_minor: 0,
        balance_minor: 0,
        blocked_minor: 0,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })),
    );
  }
  const holders = pools.users.slice(0, 8);
  const cards: Card[] = (holders.length > 0 ? holders : [null]).map((holder) => ({
    id: seededUuid(rng),
    last4: String(rng.int(0, 9_999)).padStart(4, '0'),
    holder,
    bearer: holder
      ? holder.name
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .toUpperCase()
      : 'CARTAO EMPRESA',
  }));
  const g: Generator = { rng, companyId, pools, cards, now };
  const [operations, payments, cardAccount] = [
    pools.accounts[0]!,
    pools.accounts[1] ?? pools.accounts[0]!,
    pools.accounts[2] ?? pools.accounts[0]!,
  ];
  const accountFor = (type: TransactionType) =>
    type.icon === 'credit-card' || type === TRANSACTION_TYPES.internationalPurchase || type === TRANSACTION_TYPES.refund
      ? cardAccount.id
      : type === TRANSACTION_TYPES.billPayment || type === TRANSACTION_TYPES.tedReceived
        ? payments.id
        : operations.id;

  const total = ctx.transactions;
  const files = Array.from({ length: 24 }, (_, i) => invoicePdf(i)).map((content) => ({
    content,
    sha256: createHash('sha256').update(content).digest('hex'),
  }));
  const purchases = Math.ceil(total / 4);
  ctx.onProgress?.(0, total);
  await writeTransaction(db, async (trx) => {
    const at = instants(g, total, HISTORY_DAYS);
    let purchaseEvent = 70_000_000 + rng.int(0, 9_999_999);
    // The lowest running balance of each account, to fund it so that it never goes below a cushion.
    const running = new Map<number, { now: number; min: number }>();
    for (let i = 0; i < total; i += BATCH) {
      const rows = at.slice(i, i + BATCH).map((t) => bankingRow(g, t, accountFor, (purchaseEvent += rng.int(1, 40))));
      for (const r of rows.filter((row) => row.status === 2)) {
        const b = running.get(r.account_id) ?? { now: 0, min: 0 };
        b.now += r.sub_type === 'CREDIT' ? r.total_amount_minor : -r.total_amount_minor;
        b.min = Math.min(b.min, b.now);
        running.set(r.account_id, b);
      }
      const ids = await insertBankingTransactions(trx, rows, now);
      const links = ids.flatMap((id, k) =>
        rng.chance(0.08) && rows[k]!.sub_type === 'DEBIT'
          ? [
              {
                id: seededUuid(rng),
                bankingId: id,
                name: `nota-fiscal-${id}.pdf`,
                file: rng.int(0, files.length - 1),
                at: new Date(at[i + k]! + 86_400_000).toISOString(),
              },
            ]
          : [],
      );
      await attachSeedFiles(trx, companyId, files, links);
      ctx.onProgress?.(Math.min(total, i + BATCH), total);
    }
    await insertSeededCards(trx, seededCards(g, HISTORY_DAYS));
    const cardRows = instants(g, purchases, HISTORY_DAYS).flatMap((t) => creditCardRows(g, t, timeZone));
    for (const batch of chunks(cardRows, BATCH)) await insertCreditCardTransactions(trx, batch, now);
    await payPastBills(trx, companyId, localDate(now, timeZone));
    await fundAccounts(
      trx,
      companyId,
      [...running].map(([id, b]) => ({ id, net: b.now, lowest: b.min, cushion: rng.int(2_000_000, 25_000_000) })),
    );
  });
}
