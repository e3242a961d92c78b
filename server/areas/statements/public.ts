// What other areas may change of the statements: moving the transactions off a deleted category or
// cost center, marking the rows that show a renamed one as changed, and the ingest runs' figures
// the metrics show.
export { clearCostCenter, reassignCategory } from './reclassify.js';
export { touchStatementRows } from './versions.js';
export { ingestRunsByStatus } from './store/ingest-runs.js';
export { statementDataVersion } from './versions.js';
