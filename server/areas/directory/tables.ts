// Row types of the directory's tables (migration 0002): cost centers, suppliers, categories, establishments.
import type { Generated, Insertable, Selectable } from 'kysely';

/** The platform's catalogue of who maintains a directory entry: 1 DEFAULT, 2 CUSTOM. */
export interface DirectoryTypeRow {
  id: number;
  type: DirectoryType;
  created_at: string;
  updated_at: string;
}

export type DirectoryType = 'DEFAULT' | 'CUSTOM';

export interface CostCenterRow {
  /** UUID v4. */
  id: string;
  company_id: string;
  /** As shown, trimmed. */
  name: string;
  /** The comparison form of `name` (see names.ts); unique per company. */
  name_key: string;
  /** The deprecated `responsible` of the list: the legacy record of who answers for it. */
  responsible_id: string | null;
  responsible_name: string | null;
  created_at: string;
  updated_at: string;
}

interface NamedEntryTable {
  id: Generated<number>;
  company_id: string;
  name: string;
  name_key: string;
  type_id: number;
  created_at: string;
  updated_at: string;
}

export interface EstablishmentTable {
  id: Generated<number>;
  company_id: string;
  category_id: number;
  name: string;
  type_id: number;
  created_at: string;
  updated_at: string;
}

export type CategoryRow = Selectable<NamedEntryTable>;
export type EstablishmentRow = Selectable<EstablishmentTable>;
/** A supplier or category to insert: the two tables have the same columns. */
export type NewTypedEntry = Insertable<NamedEntryTable>;
export type NewSupplier = NewTypedEntry;
export type NewCategory = NewTypedEntry;
export type NewEstablishment = Insertable<EstablishmentTable>;

export interface DirectoryTables {
  directory_types: DirectoryTypeRow;
  cost_centers: CostCenterRow;
  suppliers: NamedEntryTable;
  categories: NamedEntryTable;
  establishments: EstablishmentTable;
}
