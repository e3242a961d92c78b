// A cost center as the API shows it (responses and events).
import type { CostCenterRow } from '../tables.js';

export const presentCostCenter = (row: CostCenterRow) => ({ id: row.id, companyId: row.company_id, name: row.name });
