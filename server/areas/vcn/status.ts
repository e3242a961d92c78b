// A card's effective status: EXPIRED is derived from the window, never stored.
import type { StoredVcnStatus } from './tables.js';

export type VcnStatus = StoredVcnStatus | 'EXPIRED';

/** CANCELLED is final; an ACTIVE or BLOCKED card is EXPIRED once `today` is past its endDate. */
export function effectiveStatus(stored: StoredVcnStatus, endDate: string, today: string): VcnStatus {
  if (stored === 'CANCELLED') return stored;
  return today > endDate ? 'EXPIRED' : stored;
}

/** A live card holds its idempotency key and can be updated. */
export const isLive = (status: VcnStatus): boolean => status === 'ACTIVE' || status === 'BLOCKED';
