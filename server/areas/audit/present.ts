// An audit entry as the API shows it (the contract's AuditEntry).
import type { components } from '../../../generated/openapi.js';
import type { AuditEntryRow } from './tables.js';

export const presentAuditEntry = (row: AuditEntryRow): components['schemas']['AuditEntry'] => ({
  id: row.id,
  action: row.action as components['schemas']['AuditEntry']['action'],
  actor: row.actor,
  target: row.target,
  ip: row.ip,
  requestId: row.request_id,
  createdAt: row.created_at,
  details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : {},
});
