// GET /statements/v1/exports/banking and /credit-card: the list's filters, checked by the list's own
// rules, then the whole statement streamed as CSV or OFX (write.ts) from one snapshot of the store
// (server/db/snapshot.ts), at most `exportsPerCompany` at once per company (leases.ts).
import { defineHandlers, type HandlerContext } from '../../../http/handler.js';
import { ApiError, badRequest } from '../../../http/errors.js';
import { readSnapshot } from '../../../db/snapshot.js';
import { formatInstant } from '../../../lib/time.js';
import { bankingPageQuery, dateRange } from '../banking-query.js';
import { userIdsByEmail } from '../store/lookups.js';
import { fromMinor } from '../../../lib/money.js';
import { BANKING_COLUMNS, CREDIT_CARD_COLUMNS } from './columns.js';
import { acquireExportLease, RETRY_AFTER_SECONDS } from './leases.js';
import { bankingChunks, creditCardChunks } from './rows.js';
import { accountsBalance, statementSpan } from './store.js';
import { streamExport, type ExportLog } from './stream.js';
import { writeExport, type ExportFormat } from './write.js';

const MEDIA_TYPES = { csv: 'text/csv; charset=utf-8', ofx: 'application/x-ofx' } as const;

interface Common {
  format: ExportFormat;
  dialect?: 'rfc4180' | 'excel-br';
  startDate?: string;
  endDate?: string;
}

/** The checks both exports share; a lease, or 429 when the company runs as many exports as it may. */
async function begin(statement: string, q: Common, { db, auth, config }: HandlerContext) {
  if (q.format === 'ofx' && q.dialect !== undefined) throw badRequest('dialect applies to format=csv only');
  const max = config.exportsPerCompany;
  const lease = max > 0 ? await acquireExportLease(db, auth.companyId, max) : { release: async () => {} };
  if (!lease) {
    const message = `The company already has ${max} exports running; retry in ${RETRY_AFTER_SECONDS} seconds`;
    throw new ApiError(429, message, [], { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
  const period = q.startDate && q.endDate ? `${q.startDate}-${q.endDate}` : 'all';
  return {
    lease,
    contentType: MEDIA_TYPES[q.format],
    headers: { 'Content-Disposition': `attachment; filename="${statement}-${period}.${q.format}"` },
  };
}

/** The OFX period: the filter's days, else the statement's first and last transaction, else now. */
async function periodOf(
  range: { from?: string; to?: string },
  span: () => Promise<{ first: string; last: string } | undefined>,
  timeZone: string,
  now: Date,
) {
  if (range.from !== undefined && range.to !== undefined)
    return {
      start: formatInstant(range.from, timeZone),
      end: formatInstant(new Date(Date.parse(range.to) - 1000), timeZone),
    };
  const found = await span();
  return {
    start: formatInstant(found?.first ?? now, timeZone),
    end: formatInstant(found?.last ?? now, timeZone),
  };
}

export const handlers = defineHandlers({
  downloadBankingExport: async ({ query }, ctx) => {
    const { db, auth, clock } = ctx;
    const { format, dialect } = query;
    const { page, email } = bankingPageQuery(query, ctx);
    const started = await begin('banking', query, ctx);
    const now = clock.now();
    const log: ExportLog = { filters: { ...page.filters, sort: page.sort, responsibleEmail: email, format, dialect } };
    const produce = (write: Parameters<typeof writeExport>[0]) =>
      readSnapshot(db, async (reader) => {
        const filters = { ...page.filters };
        if (email !== undefined) filters.userIds = await userIdsByEmail(reader, auth.companyId, email);
        const chunks = filters.userIds?.length === 0 ? [] : bankingChunks(reader, { ...page, filters }, auth.timeZone);
        return writeExport(
          write,
          format,
          dialect ?? 'rfc4180',
          {
            statement: 'banking',
            columns: BANKING_COLUMNS,
            chunks,
            toOfx: (t) => ({
              type: t.transactionType.subType,
              posted: t.transactionDate,
              amount: t.transactionType.subType === 'DEBIT' ? -t.totalTransactionAmount : t.totalTransactionAmount,
              fitId: String(t.id),
              name: t.sourceDestinationName ?? t.description,
              memo: [t.description, t.notes].filter(Boolean).join(' - '),
            }),
            period: async () => ({
              accountId: page.filters.accountId === undefined ? 'ALL' : String(page.filters.accountId),
              ...(await periodOf(
                page.filters,
                () => statementSpan(reader, 'banking_transactions', auth.companyId),
                auth.timeZone,
                now,
              )),
            }),
            balance: async () => fromMinor(await accountsBalance(reader, auth.companyId, page.filters.accountId)),
          },
          formatInstant(now, auth.timeZone),
        );
      });
    return {
      status: 200,
      contentType: started.contentType,
      headers: started.headers,
      stream: streamExport(log, produce, started.lease.release),
    };
  },

  downloadCreditCardExport: async ({ query }, ctx) => {
    const { db, auth, clock } = ctx;
    const { format, dialect } = query;
    const cardIds = query.cardIds ? [...new Set(query.cardIds.map((id) => id.toLowerCase()))].sort() : undefined;
    const range = dateRange(query.startDate, query.endDate, auth.timeZone);
    const started = await begin('credit-card', query, ctx);
    const now = clock.now();
    const log: ExportLog = { filters: { cardIds, ...range, format, dialect } };
    const produce = (write: Parameters<typeof writeExport>[0]) =>
      readSnapshot(db, (reader) =>
        writeExport(
          write,
          format,
          dialect ?? 'rfc4180',
          {
            statement: 'credit-card',
            columns: CREDIT_CARD_COLUMNS,
            chunks: creditCardChunks(reader, { companyId: auth.companyId, cardIds, ...range }, auth.timeZone),
            toOfx: (t) => ({
              type: 'DEBIT',
              posted: t.transactionDate,
              amount: -t.brlAmount,
              fitId: t.id,
              name: t.merchantName,
              memo: [t.description, t.notes].filter(Boolean).join(' - '),
            }),
            period: async () => ({
              accountId: cardIds?.length === 1 ? cardIds[0]! : 'ALL',
              ...(await periodOf(
                range,
                () => statementSpan(reader, 'credit_card_transactions', auth.companyId),
                auth.timeZone,
                now,
              )),
            }),
            balance: async (total) => total,
          },
          formatInstant(now, auth.timeZone),
        ),
      );
    return {
      status: 200,
      contentType: started.contentType,
      headers: started.headers,
      stream: streamExport(log, produce, started.lease.release),
    };
  },
});
