// POST /accounting/v1/syncs: the company's ERP records what it posted (store/accounting-syncs.ts).
import { defineHandlers } from '../../kit/handler.js';
import { formatInstant } from '../../lib/time.js';
import { auditing } from '../audit/public.js';
import { recordAccountingSync } from './store/accounting-syncs.js';

export const accountingHandlers = defineHandlers({
  createAccountingSync: async ({ body }, ctx) => {
    const now = ctx.auth.companyClock.now();
    const { changed } = await recordAccountingSync(ctx.db, ctx.auth.companyId, body, now, {
      timeZone: ctx.auth.timeZone,
      actor: ctx.actor,
      audit: auditing(ctx, 'accounting_sync.recorded'),
    });
    return {
      status: 201,
      body: {
        statement: body.statement,
        successful: body.successful?.length ?? 0,
        failed: body.failed?.length ?? 0,
        unsynced: body.unsynced?.length ?? 0,
        changed,
        recordedAt: formatInstant(now.toISOString(), ctx.auth.timeZone),
      },
    };
  },
});
