// A supplier as the API shows it (responses and events).
import type { DirectoryType } from '../tables.js';

interface SupplierView {
  id: number;
  company_id: string;
  name: string;
  type_id: number;
  type: DirectoryType;
}

export const presentSupplier = (row: SupplierView) => ({
  id: row.id,
  companyId: row.company_id,
  name: row.name,
  type: { id: row.type_id, type: row.type },
});
