// What other areas may change of the statements: moving the transactions off a deleted category or
// cost center, and marking the rows that show a renamed one as changed.
export { clearCostCenter, reassignCategory } from './reclassify.js';
export { touchStatementRows } from './versions.js';
