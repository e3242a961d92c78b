// Reading a card for a reveal, recorded in the reveals table and the audit log in the same transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { VcnRow } from '../tables.js';
import { getVcn } from './cards.js';
import { writeTransaction } from '../../../db/transaction.js';
import type { AuditWrite } from '../../audit/public.js';

interface RevealRequest {
  companyId: string;
  vcnId: string;
  clientId: string;
  requestId: string;
  now: Date;
  /** Writes the reveal's `vcn.revealed` audit entry, readable by the company (`GET /audit/v1/entries`). */
  audit?: AuditWrite;
}

/** The card to reveal; the reveal is recorded (card, client, time) before anything is returned. */
export async function recordReveal(db: Kysely<Database>, request: RevealRequest): Promise<VcnRow> {
  return writeTransaction(db, async (trx) => {
    const card = await getVcn(trx, request.companyId, request.vcnId);
    await trx
      .insertInto('vcn_reveals')
      .values({
        company_id: request.companyId,
        vcn_id: request.vcnId,
        client_id: request.clientId,
        request_id: request.requestId,
        revealed_at: request.now.toISOString(),
      })
      .execute();
    await request.audit?.(trx, request.vcnId);
    return card;
  });
}
