// Webhook endpoints and deliveries as the API shows them. The secret is shown only on creation
// and rotation (`withSecret`).
import type { WebhookDeliveryRow, WebhookEndpointRow } from './tables.js';

export const presentEndpoint = (row: WebhookEndpointRow) => ({
  id: row.id,
  url: row.url,
  enabledEvents: JSON.parse(row.enabled_events) as string[],
  ...(row.description !== null ? { description: row.description } : {}),
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const withSecret = (row: WebhookEndpointRow) => ({ ...presentEndpoint(row), secret: row.secret });

export const presentDelivery = (row: WebhookDeliveryRow & { event_type: string }) => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  ...(row.last_attempt_at !== null ? { lastAttemptAt: row.last_attempt_at } : {}),
  ...(row.last_status_code !== null ? { responseStatus: row.last_status_code } : {}),
  ...(row.last_error !== null ? { error: row.last_error } : {}),
  ...(row.last_duration_ms !== null ? { durationMs: row.last_duration_ms } : {}),
  ...(row.next_attempt_at !== null && row.status === 'pending' ? { nextAttemptAt: row.next_attempt_at } : {}),
  createdAt: row.created_at,
});
