// The idempotency table (migrations 0008_events and 0034_idempotency_outcomes): one claim or stored
// answer per company, client and key.
export interface IdempotencyKeyRow {
  company_id: string;
  client_id: string;
  key: string;
  fingerprint: string;
  status: 'running' | 'done';
  /** The running attempt's lease: free to take over once past. */
  locked_until: string;
  /** The running attempt holding the key (a random id); null on keys claimed before 0034. */
  owner: string | null;
  /** What the attempts' committed writes returned, in order (sealed); null while none committed. */
  outcome: string | null;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyRow;
}
