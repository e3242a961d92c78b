// The card issuer (processor) behind the VCN operations: a service main.ts chooses (CARD_ISSUER) and
// hands every handler. The built-in one is simulated (server/sandbox/issuer.ts).
import type { components } from '../../generated/openapi.js';

type VcnType = components['schemas']['VcnType'];

export interface IssueCardRequest {
  vcnId: string;
  type: VcnType;
  fundingCardId: string;
  currency: string;
  limitMinor: number;
  startDate: string;
  endDate: string;
  maxPurchaseQuantity: number;
}

export interface IssuedCard {
  /** The 16-digit card number; the caller encrypts it before storing. */
  pan: string;
  /** The issuer's reference for later changes. */
  providerRef: string;
}

export interface UpdateCardRequest {
  providerRef: string;
  limitMinor: number;
  endDate: string;
}

/** Any error a method throws means "the issuer is unavailable": the operation answers 503 and changes nothing. */
export interface CardIssuer {
  issueCard(request: IssueCardRequest): Promise<IssuedCard>;
  updateCard(request: UpdateCardRequest): Promise<void>;
  /** `false`: no issuer is configured at all (a state of the server, not an outage to wait out). */
  readonly configured?: boolean;
}

/**
 * No issuer configured (`CARD_ISSUER=none`, production's default): every call fails, so every VCN
 * operation that needs the issuer answers 503 `vcn-provider-unavailable` and changes nothing, before
 * any other check of the request (server/areas/vcn/handlers.ts).
 */
export function unavailableIssuer(): CardIssuer {
  const unavailable = async (): Promise<never> => {
    throw new Error('no card issuer is configured (CARD_ISSUER=none)');
  };
  return { issueCard: unavailable, updateCard: unavailable, configured: false };
}
