// Row types of the webhook endpoints and deliveries (migration 0008_events): the webhooks area owns them.

export type WebhookEndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpointRow {
  /** `we_` + ULID. */
  id: string;
  company_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types, or `["*"]`. */
  enabled_events: string;
  status: WebhookEndpointStatus;
  /** `whsec_…` */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryRow {
  /** `msg_` + ULID: also the `webhook-id` header, stable across retries. */
  id: string;
  company_id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  claimed_until: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: string;
}

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
}
