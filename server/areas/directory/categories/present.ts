// The API shape of a category and its establishments.
import type { CategoryRow, EstablishmentRow } from '../tables.js';
import { typeOf, type TypeCatalogue } from '../store/types.js';

function presentEstablishment(row: EstablishmentRow, types: TypeCatalogue) {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    type: typeOf(types, row.type_id),
    establishmentCategoryId: row.category_id,
  };
}

/** Presents categories with their establishments (given for all of them, in any grouping). */
export function presentCategories(
  rows: readonly CategoryRow[],
  establishments: readonly EstablishmentRow[],
  types: TypeCatalogue,
) {
  const linked = new Map<number, EstablishmentRow[]>();
  for (const e of establishments) linked.set(e.category_id, [...(linked.get(e.category_id) ?? []), e]);
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    companyId: row.company_id,
    name: row.name,
    establishments: (linked.get(row.id) ?? []).map((e) => presentEstablishment(e, types)),
    type: typeOf(types, row.type_id),
  }));
}
