// One-time approval codes: what a company's administrator enters on the consent page to approve an
// app for the company. 10 minutes, single use, optionally a scope ceiling; stored as SHA-256 digests.
import { recordAudit } from '../audit/public.js';
import { writeTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError } from '../../kit/errors.js';
import { ALL_SCOPES, companyTimeZone, digestToken, newSecret } from '../auth/public.js';

const APPROVAL_CODE_TTL_MS = 10 * 60 * 1000;

export async function createApprovalCode(
  db: Db,
  clock: Clock,
  input: { companyId: string; scopes?: string[]; createdBy: string; ip?: string | null; requestId?: string | null },
) {
  const unknown = input.scopes?.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s)) ?? [];
  if (unknown.length > 0)
    throw new ApiError(400, `Unknown scopes: ${unknown.join(', ')}`, [`body.scopes: unknown ${unknown.join(', ')}`]);
  if (input.scopes?.length === 0)
    throw new ApiError(400, 'Give at least one scope, or omit scopes', ['body.scopes: empty']);
  if ((await companyTimeZone(db, input.companyId)) === undefined)
    throw new ApiError(404, `No company ${input.companyId}`);
  const code = newSecret('apv_').slice(0, 36);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + APPROVAL_CODE_TTL_MS).toISOString();
  const scopes = input.scopes ? [...new Set(input.scopes)] : null;
  await db
    .deleteFrom('approval_codes')
    .where('expires_at', '<=', now.toISOString())
    .where('used_at', 'is', null)
    .execute();
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto('approval_codes')
      .values({
        code_hash: digestToken(code),
        company_id: input.companyId,
        scope_ceiling: scopes?.join(' ') ?? null,
        created_by: input.createdBy,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    await recordAudit(trx, clock, {
      companyId: input.companyId,
      action: 'approval_code.created',
      actor: input.createdBy,
      ip: input.ip,
      requestId: input.requestId,
      details: { scopes: scopes ?? 'any', expiresAt },
    });
  });
  return { code, expiresAt, scopes };
}

/** The approval code's company and ceiling when it is valid (unused, unexpired). */
export async function peekApprovalCode(db: Db, clock: Clock, code: string) {
  const row = await db
    .selectFrom('approval_codes')
    .selectAll()
    .where('code_hash', '=', digestToken(code))
    .executeTakeFirst();
  if (!row || row.used_at !== null || Date.parse(row.expires_at) <= clock.now().getTime()) return undefined;
  return { codeHash: row.code_hash, companyId: row.company_id, ceiling: row.scope_ceiling?.split(' ') };
}

/** Marks the code used; false when another request used it first. */
export async function claimApprovalCode(db: Db, clock: Clock, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable('approval_codes')
    .set({ used_at: clock.now().toISOString() })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
