// The card issuer (processor) behind the VCN operations, and the built-in simulated one.
import { randomInt, randomUUID } from 'node:crypto';
import { luhnCheckDigit } from './crypto.js';
import type { VcnType } from './tables.js';

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
}

/** A simulated issuer that tests (and the sandbox) can make fail. */
export interface SimulatedIssuer extends CardIssuer {
  /** The next `count` calls fail. */
  failNext(count?: number): void;
  /** While unavailable, every call fails. */
  setAvailable(available: boolean): void;
  /** Calls received so far (including failed ones). */
  readonly calls: number;
}

/** The BIN of the sandbox cards: a test range, never routed to a real network. */
export const SANDBOX_BIN = '411111';

export class IssuerUnavailableError extends Error {
  constructor() {
    super('The simulated card issuer is unavailable');
    this.name = 'IssuerUnavailableError';
  }
}

/** A Luhn-valid 16-digit number in the sandbox BIN range. */
export function sandboxPan(): string {
  let body = SANDBOX_BIN;
  while (body.length < 15) body += String(randomInt(10));
  return body + String(luhnCheckDigit(body));
}

export function createSimulatedIssuer(): SimulatedIssuer {
  let failures = 0;
  let available = true;
  let calls = 0;
  const gate = async () => {
    calls++;
    if (!available) throw new IssuerUnavailableError();
    if (failures > 0) {
      failures--;
      throw new IssuerUnavailableError();
    }
  };
  return {
    async issueCard() {
      await gate();
      return { pan: sandboxPan(), providerRef: `sim_${randomUUID()}` };
    },
    async updateCard() {
      await gate();
    },
    failNext(count = 1) {
      failures += count;
    },
    setAvailable(value: boolean) {
      available = value;
    },
    get calls() {
      return calls;
    },
  };
}
