// Every migration, in order. A migration, once released, is never edited: add a new one.
import type { Migration } from 'kysely';
import * as m0001 from './0001_auth.js';
import * as m0002 from './0002_directory.js';
import * as m0003 from './0003_users.js';
import * as m0004 from './0004_statements.js';
import * as m0005 from './0005_vcn.js';
import * as m0006 from './0006_ingest_keys.js';
import * as m0007 from './0007_auth_failures.js';
import * as m0008 from './0008_events.js';
import * as m0009 from './0009_rate_limits.js';
import * as m0010 from './0010_ingest_runs.js';
import * as m0011 from './0011_banking_fee_rows.js';
import * as m0012 from './0012_auth_failure_keys.js';
import * as m0013 from './0013_ingest_staging.js';
import * as m0014 from './0014_company_clock.js';
import * as m0015 from './0015_export_leases.js';
import * as m0016 from './0016_statement_changes.js';
import * as m0017 from './0017_client_rotation.js';
import * as m0018 from './0018_statement_history.js';
import * as m0019 from './0019_cards.js';
import * as m0020 from './0020_statement_search.js';
import * as m0022 from './0022_oauth_apps.js';
import * as m0025 from './0025_audit_log.js';
import * as m0026 from './0026_client_management.js';
import * as m0028 from './0028_token_signals.js';
import * as m0029 from './0029_event_client.js';
import * as m0031 from './0031_ingest_event_cursor.js';
import * as m0032 from './0032_search_signatures.js';
import * as m0033 from './0033_search_signatures_postgres.js';
import * as m0034 from './0034_idempotency_outcomes.js';
import * as m0035 from './0035_webhook_queues.js';
import * as m0038 from './0038_restore_safe_functions.js';
import * as m0041 from './0041_transaction_metadata.js';
import * as m0042 from './0042_accounting_syncs.js';
import * as m0040 from './0040_app_scopes.js';
import * as m0037 from './0037_ingest_chunks.js';

export const migrations: Record<string, Migration> = {
  '0001_auth': m0001,
  '0002_directory': m0002,
  '0003_users': m0003,
  '0004_statements': m0004,
  '0005_vcn': m0005,
  '0006_ingest_keys': m0006,
  '0007_auth_failures': m0007,
  '0008_events': m0008,
  '0009_rate_limits': m0009,
  '0010_ingest_runs': m0010,
  '0011_banking_fee_rows': m0011,
  '0012_auth_failure_keys': m0012,
  '0013_ingest_staging': m0013,
  '0014_company_clock': m0014,
  '0015_export_leases': m0015,
  '0016_statement_changes': m0016,
  '0017_client_rotation': m0017,
  '0018_statement_history': m0018,
  '0019_cards': m0019,
  '0020_statement_search': m0020,
  '0022_oauth_apps': m0022,
  '0025_audit_log': m0025,
  '0026_client_management': m0026,
  '0028_token_signals': m0028,
  '0029_event_client': m0029,
  '0031_ingest_event_cursor': m0031,
  '0032_search_signatures': m0032,
  '0033_search_signatures_postgres': m0033,
  '0034_idempotency_outcomes': m0034,
  '0035_webhook_queues': m0035,
  '0038_restore_safe_functions': m0038,
  '0041_transaction_metadata': m0041,
  '0042_accounting_syncs': m0042,
  '0040_app_scopes': m0040,
  '0037_ingest_chunks': m0037,
};
