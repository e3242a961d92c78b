// GET /statements/v1/exports/banking and /credit-card: the list's filters, checked by the list's own
// rules, then the whole statement streamed as CSV or OFX (sources.ts), at most `exportsPerCompany`
// at once per company (leases.ts).
import { resolveSearch } from '../store/search.js';
import { defineHandlers, type HandlerContext } from '../../../kit/handler.js';
import { ApiError, badRequest } from '../../../kit/errors.js';
import { bankingPageQuery } from '../banking-query.js';
import { creditCardQuery } from '../credit-card-query.js';
import { acquireExportLease, RETRY_AFTER_SECONDS } from './leases.js';
import { exportBanking, exportCreditCard, type ExportRequest } from './sources.js';
import { streamExport, type ExportLog } from './stream.js';
import type { ExportFormat } from './write.js';
import { auditing } from '../../audit/public.js';

const MEDIA_TYPES = { csv: 'text/csv; charset=utf-8', ofx: 'application/x-ofx' } as const;

interface Common {
  format: ExportFormat;
  dialect?: 'rfc4180' | 'excel-br';
  startDate?: string;
  endDate?: string;
  metadataColumns?: string[];
}

/** The checks both exports share, then a lease, or 429 when the company runs as many exports as it may. */
async function begin(statement: string, q: Common, ctx: HandlerContext) {
  const { db, auth, config, clock } = ctx;
  if (q.format === 'ofx' && q.dialect !== undefined) throw badRequest('dialect applies to format=csv only');
  if (q.format === 'ofx' && q.metadataColumns !== undefined)
    throw badRequest('metadataColumns applies to format=csv only', undefined, { param: 'metadataColumns' });
  const max = config.exportsPerCompany;
  const lease = max > 0 ? await acquireExportLease(db, clock, auth.companyId, max) : { release: async () => {} };
  if (!lease) {
    const message = `The company already has ${max} exports running; retry in ${RETRY_AFTER_SECONDS} seconds`;
    throw new ApiError(429, message, [], { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
  const period = q.startDate && q.endDate ? `${q.startDate}-${q.endDate}` : 'all';
  // Recorded when the download starts: the rows are streamed after the answer's status is sent.
  await auditing(ctx, 'export.downloaded')(db, `/statements/v1/exports/${statement}`, {
    format: q.format,
    ...(q.startDate ? { startDate: q.startDate } : {}),
    ...(q.endDate ? { endDate: q.endDate } : {}),
  }).catch(async (err: unknown) => {
    await lease.release();
    throw err;
  });
  const request: ExportRequest = {
    format: q.format,
    dialect: q.dialect ?? 'rfc4180',
    timeZone: auth.timeZone,
    now: clock.now(),
    ...(q.metadataColumns ? { metadataColumns: q.metadataColumns } : {}),
  };
  return {
    request,
    release: lease.release,
    reply: {
      status: 200 as const,
      contentType: MEDIA_TYPES[q.format],
      headers: { 'Content-Disposition': `attachment; filename="${statement}-${period}.${q.format}"` },
    },
  };
}

export const handlers = defineHandlers({
  downloadBankingExport: async ({ query }, ctx) => {
    const { page, email, words } = bankingPageQuery(query, ctx);
    if (words) page.filters.search = await resolveSearch(ctx.db, ctx.auth.companyId, words);
    const { request, release, reply } = await begin('banking', query, ctx);
    const filters = { ...page.filters, sort: page.sort, responsibleEmail: email, ...request };
    const log: ExportLog = { filters, rows: 0, completed: false };
    const produce = (write: Parameters<typeof exportBanking>[1]) => exportBanking(ctx.db, write, page, email, request);
    ctx.logFields({ export: log });
    return { ...reply, stream: streamExport(log, produce, release) };
  },

  downloadCreditCardExport: async ({ query }, ctx) => {
    const { format: _format, dialect: _dialect, ...filters } = query;
    const { query: records, words } = creditCardQuery(filters, ctx.auth.companyId, ctx.auth.timeZone);
    // Every check before the lease and the audit entry: a refused export writes nothing.
    const search = words ? await resolveSearch(ctx.db, ctx.auth.companyId, words) : undefined;
    const { request, release, reply } = await begin('credit-card', query, ctx);
    const { companyId: _company, ...logged } = records;
    const log: ExportLog = {
      filters: { ...logged, ...(query.q !== undefined ? { q: query.q } : {}), ...request },
      rows: 0,
      completed: false,
    };
    const statement = { ...records, ...(search ? { search } : {}) };
    const produce = (write: Parameters<typeof exportCreditCard>[1]) =>
      exportCreditCard(ctx.db, write, statement, request);
    ctx.logFields({ export: log });
    return { ...reply, stream: streamExport(log, produce, release) };
  },
});
