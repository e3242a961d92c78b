// The audit log's actions: `<object>.<verb>`, like the event types. An entry is written in the
// transaction of the action it records (a refused token request: in its own).
export const AUDIT_ACTIONS = [
  'api_client.created',
  'api_client.secret_rotated',
  'api_client.revoked',
  'api_client.expired',
  'token.refused',
  'vcn.revealed',
  'export.downloaded',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'approval_code.created',
  'approval_code.used',
  'app.approved',
  'app.revoked',
  'accounting_sync.recorded',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The actor of what the operator's command line does. */
export const CLI_ACTOR = 'cli';
/** The actor of what the worker does on its own (revoking unused clients). */
export const SYSTEM_ACTOR = 'system';
