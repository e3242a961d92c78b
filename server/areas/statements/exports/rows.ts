// The rows of an export, read in keyset chunks with the list's own page queries: each chunk is the
// next page after the previous chunk's last row, so the rows come in the list's order, each once.
import type { Db } from '../../../db/database.js';
import { loadBankingPage } from '../store/banking-page.js';
import { planBankingPage } from '../store/banking-plan.js';
import type { BankingPageQuery } from '../store/banking-types.js';
import { loadCreditCardPage, type CreditCardPageQuery } from '../store/credit-card-page.js';
import { presentBanking, presentCreditCard } from '../present.js';

/**
 * Rows per chunk: one page query each. Large enough that the per-query cost fades; small enough
 * that memory stays flat and that one chunk (a synchronous read on SQLite, presenting, formatting)
 * holds the event loop only briefly, so requests served beside an export are not delayed (or shed).
 */
const CHUNK_ROWS = 250;

export async function* bankingChunks(db: Db, query: Omit<BankingPageQuery, 'after' | 'take'>, timeZone: string) {
  // Planned once, so every chunk reads the same way.
  const planned = await planBankingPage(db, { ...query, take: CHUNK_ROWS });
  let after: BankingPageQuery['after'];
  for (;;) {
    const { items, nextKey } = await loadBankingPage(db, { ...planned, after });
    yield items.map((t) => presentBanking(t, timeZone));
    if (!nextKey) return;
    after = nextKey;
  }
}

export async function* creditCardChunks(db: Db, query: Omit<CreditCardPageQuery, 'after' | 'take'>, timeZone: string) {
  let after: CreditCardPageQuery['after'];
  for (;;) {
    const { items, nextKey } = await loadCreditCardPage(db, { ...query, after, take: CHUNK_ROWS });
    yield items.map((t) => presentCreditCard(t, timeZone));
    if (!nextKey) return;
    after = nextKey;
  }
}
