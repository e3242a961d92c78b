// Row types of the virtual-card tables (migration 0005_vcn).
import type { Generated } from 'kysely';

export type VcnType = 'HOTEL' | 'AERIAL' | 'CUSTOM';
/** Stored states of an issued card; EXPIRED is never stored, it is computed from end_date (see status.ts). */
export type StoredVcnStatus = 'ACTIVE' | 'BLOCKED' | 'CANCELLED';
/**
 * PENDING: internal, never in the API — a reservation that holds the idempotency key while the
 * issuer is called outside any transaction (see store/issue.ts). It has no card data yet.
 */
export type VcnRowStatus = StoredVcnStatus | 'PENDING';
export type VcnTransactionStatus = 'APPROVED' | 'DECLINED';

/** An issued card (not a reservation): what every read of the area returns. */
export interface VcnRow {
  /** ULID. */
  id: string;
  company_id: string;
  /** The API client that issued the card. */
  client_id: string;
  type: VcnType;
  status: StoredVcnStatus;
  /** reservationId, recordLocator or customUse.id. */
  idempotency_key: string;
  /** 1 while this card holds its key (at most one row per company, type and key: partial unique index). */
  holds_key: number;
  currency: string;
  /** The ceiling, in minor units. */
  limit_minor: number;
  /** The booking's price (HOTEL and AERIAL only). */
  rate_minor: number | null;
  taxes_minor: number | null;
  fees_minor: number | null;
  /** The issuance day in the company's time zone, YYYY-MM-DD. */
  issued_on: string;
  start_date: string;
  end_date: string;
  max_purchase_quantity: number;
  /** JSON of the booking block as sent (hotelBooking, flightBooking or customUse). */
  booking: string;
  /** JSON array of customFields, or null. */
  custom_fields: string | null;
  /** JSON of the requestor (internal: never shared with the issuer). */
  requestor: string;
  funding_card_id: string;
  /** The issuer's reference of the card. */
  provider_ref: string;
  /** AES-256-GCM ciphertext of the PAN (see crypto.ts); the PAN is never stored in clear. */
  pan_ciphertext: string;
  pan_last4: string;
  /** For a reservation, the time it was taken (the staleness reference). */
  created_at: string;
  updated_at: string;
  /**
   * A top-up in flight at the issuer (see store/update.ts): its token, start time, and the
   * ceiling and endDate it asks for. All null when no change is in flight.
   */
  change_id: string | null;
  change_started_at: string | null;
  change_limit_minor: number | null;
  change_end_date: string | null;
  /** The expired or cancelled card whose key this one took over (a reservation gives it back if the issue fails). */
  replaces_id: string | null;
  /** When `vcn.expired` was recorded for the card (migration 0008); absent until it is. */
  expired_event_at?: string | null;
}

type CardDataColumns = 'status' | 'provider_ref' | 'pan_ciphertext' | 'pan_last4';

/** The stored row of `vcns`: an issued card, or a reservation (PENDING, card data null). */
export type VcnTable = Omit<VcnRow, CardDataColumns> & {
  status: VcnRowStatus;
  provider_ref: string | null;
  pan_ciphertext: string | null;
  pan_last4: string | null;
};

/** The company's own card that funds virtual cards of one type and currency. */
export interface FundingCardRow {
  id: string;
  company_id: string;
  card_type: VcnType;
  currency: string;
  label: string;
  last4: string;
  active: number;
  created_at: string;
}

export interface VcnTransactionRow {
  /** ULID. */
  id: string;
  company_id: string;
  vcn_id: string;
  status: VcnTransactionStatus;
  amount_minor: number;
  currency: string;
  /** ISO date-time (UTC). */
  occurred_at: string;
  /** The day of occurred_at in the company's time zone, for the date filters. */
  local_date: string;
  merchant_name: string;
  merchant_category: string;
  authorization_code: string | null;
  decline_reason: string | null;
}

/** Audit of card-data reveals: which client saw which card, when. */
export interface VcnRevealRow {
  id: Generated<number>;
  company_id: string;
  vcn_id: string;
  client_id: string;
  request_id: string;
  revealed_at: string;
}

export interface VcnTables {
  vcns: VcnTable;
  funding_cards: FundingCardRow;
  vcn_transactions: VcnTransactionRow;
  vcn_reveals: VcnRevealRow;
}
