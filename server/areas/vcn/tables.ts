// Row types of the virtual-card tables (migration 0005_vcn).
import type { Generated } from 'kysely';

export type VcnType = 'HOTEL' | 'AERIAL' | 'CUSTOM';
/** Stored states; EXPIRED is never stored, it is computed from end_date (see status.ts). */
export type StoredVcnStatus = 'ACTIVE' | 'BLOCKED' | 'CANCELLED';
export type VcnTransactionStatus = 'APPROVED' | 'DECLINED';

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
  created_at: string;
  updated_at: string;
}

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
  vcns: VcnRow;
  funding_cards: FundingCardRow;
  vcn_transactions: VcnTransactionRow;
  vcn_reveals: VcnRevealRow;
}
