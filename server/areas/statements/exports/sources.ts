// What each statement's export reads, inside one snapshot (server/db/snapshot.ts): its rows in
// chunks, how a row becomes an OFX transaction, the account and period its OFX head names, the
// balance its OFX tail ends with. Shared by the HTTP handlers and `finance export`.
import type { components } from '../../../../generated/openapi.js';
import type { Db } from '../../../db/database.js';
import { readSnapshot } from '../../../db/snapshot.js';
import { fromMinor } from '../../../lib/money.js';
import { formatInstant } from '../../../lib/time.js';
import { listAccounts } from '../accounts/store.js';
import type { BankingPageQuery } from '../store/banking-types.js';
import type { CreditCardPageQuery } from '../store/credit-card-page.js';
import { userIdsByEmail } from '../../users/public.js';
import type { CsvDialect } from './csv.js';
import { BANKING_COLUMNS, CREDIT_CARD_COLUMNS } from './columns.js';
import { bankingChunks, creditCardChunks } from './rows.js';
import { metadataColumns, withMetadataCells } from './metadata-columns.js';
import { cardNumber, statementSpan } from './store.js';
import type { Write } from './stream.js';
import { type ExportFormat, writeExport } from './write.js';

type Banking = components['schemas']['BankingTransaction'];
type CreditCard = components['schemas']['CreditCardTransaction'];

export interface ExportRequest {
  format: ExportFormat;
  dialect: CsvDialect;
  timeZone: string;
  now: Date;
  /** CSV: the metadata keys exported as columns after the usual ones (metadata-columns.ts). */
  metadataColumns?: readonly string[];
}

const memo = (t: { description: string; notes: string }) => [t.description, t.notes].filter(Boolean).join(' - ');

/** The OFX period: the filter's days, else the statement's first and last transaction, else now. */
async function periodOf(
  range: { from?: string; to?: string },
  span: () => Promise<{ first: string; last: string } | undefined>,
  { timeZone, now }: ExportRequest,
) {
  if (range.from !== undefined && range.to !== undefined) {
    const end = new Date(Date.parse(range.to) - 1000);
    return { start: formatInstant(range.from, timeZone), end: formatInstant(end, timeZone) };
  }
  const found = await span();
  return { start: formatInstant(found?.first ?? now, timeZone), end: formatInstant(found?.last ?? now, timeZone) };
}

/** The banking statement of `page` (its `responsibleEmail` as `email`), written through `write`; answers the rows. */
export function exportBanking(
  db: Db,
  write: Write,
  page: Omit<BankingPageQuery, 'after' | 'take'>,
  email: string | undefined,
  request: ExportRequest,
): Promise<number> {
  const { companyId } = page;
  const accountId = page.filters.accountId;
  return readSnapshot(db, async (reader) => {
    const filters = { ...page.filters };
    if (email !== undefined) filters.userIds = await userIdsByEmail(reader, companyId, email);
    const none = filters.userIds?.length === 0;
    const accounts = await listAccounts(reader, companyId, accountId);
    const one = accountId !== undefined ? accounts[0] : undefined;
    return writeExport<Banking>(write, request.format, request.dialect, now(request), {
      statement: 'banking',
      columns: [...BANKING_COLUMNS, ...metadataColumns(request.metadataColumns)],
      chunks: withMetadataCells(
        none ? [] : bankingChunks(reader, { ...page, filters }, request.timeZone),
        request.metadataColumns,
      ),
      toOfx: (t) => ({
        type: t.transactionType.subType,
        posted: t.transactionDate,
        amount: t.transactionType.subType === 'DEBIT' ? -t.totalTransactionAmount : t.totalTransactionAmount,
        fitId: String(t.id),
        name: t.sourceDestinationName ?? t.description,
        memo: memo(t),
      }),
      period: async () => ({
        account: one
          ? { bankId: one.bank_code, branchId: one.branch, accountId: one.number }
          : { accountId: accountId === undefined ? 'ALL' : String(accountId) },
        ...(await periodOf(filters, () => statementSpan(reader, 'banking_transactions', companyId), request)),
      }),
      balance: async () => fromMinor(accounts.reduce((sum, a) => sum + a.balance_minor, 0)),
    });
  });
}

/** The credit-card statement of `query`, written through `write`; answers the rows. */
export function exportCreditCard(
  db: Db,
  write: Write,
  query: Omit<CreditCardPageQuery, 'after' | 'take'>,
  request: ExportRequest,
): Promise<number> {
  const { companyId, cardIds } = query;
  return readSnapshot(db, (reader) =>
    writeExport<CreditCard>(write, request.format, request.dialect, now(request), {
      statement: 'credit-card',
      columns: [...CREDIT_CARD_COLUMNS, ...metadataColumns(request.metadataColumns)],
      chunks: withMetadataCells(creditCardChunks(reader, query, request.timeZone), request.metadataColumns),
      toOfx: (t) => ({
        type: 'DEBIT',
        posted: t.transactionDate,
        amount: -t.brlAmount,
        fitId: t.id,
        name: t.merchantName,
        memo: memo(t),
      }),
      period: async () => ({
        account: {
          accountId: (cardIds?.length === 1 && (await cardNumber(reader, companyId, cardIds[0]!))) || 'ALL',
        },
        ...(await periodOf(query, () => statementSpan(reader, 'credit_card_transactions', companyId), request)),
      }),
      // What the exported records add to the card's bills.
      balance: async (total) => total,
    }),
  );
}

const now = (request: ExportRequest) => formatInstant(request.now, request.timeZone);
