// Row type of the audit log (migration 0025_audit_log): the audit area owns it; other areas write
// to it only through server/areas/audit/public.ts.

export interface AuditEntryRow {
  /** `aud_` + ULID: ordered by creation. */
  id: string;
  company_id: string;
  action: string;
  /** The API client id that acted, or `cli` (the operator's command line), or `system` (the worker). */
  actor: string;
  /** What the action was done to: a client id, a card id, an endpoint id, an export's path. */
  target: string | null;
  /** The caller's address as the server determines it (`TRUST_PROXY`). */
  ip: string | null;
  request_id: string | null;
  created_at: string;
  /** JSON object, or null. */
  details: string | null;
}

export interface AuditTables {
  audit_entries: AuditEntryRow;
}
