// What other areas may read of the users: which of a company's users exist and their addresses. The
// statements reference users (a transaction's user and requester) but do not own them.
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { chunks } from '../../lib/chunks.js';

/** The company's users (deleted ones included: their transactions still name them) with this address. */
export async function userIdsByEmail(db: Db, companyId: string, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('email_normalized', '=', email.trim().toLowerCase())
    .execute();
  return rows.map((r) => r.id);
}

/** The company's users among `ids` (deleted ones included), each with its normalized address. */
export async function userEmails(db: Db, companyId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'email_normalized'])
      .where('company_id', '=', companyId)
      .where('id', 'in', chunk)
      .execute();
    for (const row of rows) found.set(row.id, row.email_normalized);
  }
  return found;
}

/** The names and addresses (as invited) of the company's users among `ids` (deleted ones included). */
export async function userContacts(
  db: Db,
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, { name: string; email: string }>> {
  const found = new Map<string, { name: string; email: string }>();
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('company_id', '=', companyId)
      .where('id', 'in', chunk)
      .execute();
    for (const row of rows) found.set(row.id, { name: row.name, email: row.email });
  }
  return found;
}

/** `query` over a banking row `t` with its requester's address as `requester_email` (alias `r`; see `withDisplayNames`). */
export function withRequesterEmail<
  DB extends Record<'t', { requester_user_id: string | null }>,
  TB extends keyof DB,
  O,
>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O & { requester_email: string | null }> {
  const statementQuery = query as unknown as SelectQueryBuilder<
    Database & { t: { requester_user_id: string | null } },
    't',
    O
  >;
  return statementQuery
    .leftJoin('users as r', 'r.id', 't.requester_user_id')
    .select('r.email as requester_email') as unknown as SelectQueryBuilder<
    DB,
    TB,
    O & { requester_email: string | null }
  >;
}
