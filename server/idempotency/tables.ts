// The idempotency table (migration 0008_events): one stored answer per company, client and key.
export interface IdempotencyKeyRow {
  company_id: string;
  client_id: string;
  key: string;
  fingerprint: string;
  status: 'running' | 'done';
  locked_until: string;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyRow;
}
