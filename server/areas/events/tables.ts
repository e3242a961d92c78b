// Row type of the events table (migration 0008_events): the events area owns it; the webhooks area
// reads the events it delivers through server/areas/events/public.ts.

export interface EventRow {
  /** `evt_` + ULID: ordered by creation. */
  id: string;
  company_id: string;
  type: string;
  created_at: string;
  request_id: string | null;
  /** The API client whose request made the change (migration 0029); null for the platform's changes. */
  client_id: string | null;
  /** JSON `{object, previousAttributes?}`. */
  data: string;
}

export interface EventsTables {
  events: EventRow;
}
