// An event as the API and webhook payloads show it.
import type { EventRow } from './tables.js';

export interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  requestId: string | null;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

export const presentEvent = (row: EventRow): EventBody => ({
  id: row.id,
  type: row.type,
  createdAt: row.created_at,
  requestId: row.request_id,
  data: JSON.parse(row.data) as EventBody['data'],
});
