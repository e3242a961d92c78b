// Categories as the API shows them: with their establishments and types (responses and events).
import type { Db } from '../../../../db/database.js';
import type { CategoryRow, EstablishmentRow } from '../../tables.js';
import { loadTypes } from '../../store/types.js';
import { presentCategories } from '../present.js';

export async function shownCategories(db: Db, companyId: string, rows: CategoryRow[]) {
  const [establishments, types] = await Promise.all([
    listEstablishments(
      db,
      companyId,
      rows.map((row) => row.id),
    ),
    loadTypes(db),
  ]);
  return presentCategories(rows, establishments, types);
}

/** The establishments linked to the company's categories `ids`, in ascending id order. */
async function listEstablishments(db: Db, companyId: string, ids: readonly number[]): Promise<EstablishmentRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('establishments')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('category_id', 'in', ids)
    .orderBy('id')
    .execute();
}
