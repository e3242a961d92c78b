// At most N statement exports per company at once, counted in the database so that every worker
// and replica shares the count. A running export holds a lease row and renews it while it streams;
// a lease whose process died expires after LEASE_MS and stops counting.
import type { Db } from '../../../db/database.js';
import { unguarded, writeTransaction } from '../../../db/transaction.js';
import type { Clock } from '../../../lib/clock.js';
import { newUlid } from '../../../lib/ulid.js';

const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

interface Lease {
  /** Gives the slot back (idempotent). */
  release(): Promise<void>;
}

/**
 * A lease for one more export of the company, or undefined when it already runs `max` of them.
 * `clock`: the service's wall clock (leases are shared by replicas, never the company's moved clock).
 */
export async function acquireExportLease(
  db: Db,
  clock: Clock,
  companyId: string,
  max: number,
): Promise<Lease | undefined> {
  const id = newUlid();
  // A lease is the process's bookkeeping, not a write the request's guards answer for.
  const acquired = await unguarded(() =>
    writeTransaction(db, async (trx) => {
      const now = clock.now().getTime();
      await trx.deleteFrom('export_leases').where('company_id', '=', companyId).where('expires_at', '<', now).execute();
      const { n } = await trx
        .selectFrom('export_leases')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return false;
      await trx
        .insertInto('export_leases')
        .values({ id, company_id: companyId, expires_at: now + LEASE_MS })
        .execute();
      return true;
    }),
  );
  if (!acquired) return undefined;
  const renew = setInterval(() => {
    db.updateTable('export_leases')
      .set({ expires_at: clock.now().getTime() + LEASE_MS })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined);
  }, RENEW_MS);
  renew.unref();
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      await db.deleteFrom('export_leases').where('id', '=', id).execute();
    },
  };
}

/** Seconds until a slot is likely free: exports are short, so a few seconds. */
export const RETRY_AFTER_SECONDS = 5;
