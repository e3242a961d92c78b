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
  /**
   * Makes the issuer slow: every call from now on waits until the returned function is called,
   * then succeeds (or fails, with `{ fail: true }`). Calls already waiting are released too.
   */
  hold(): (outcome?: { fail?: boolean }) => void;
  /** Calls currently waiting at a hold. */
  readonly waiting: number;
}

/** The BIN of the sandbox cards: a test range, never routed to a real network. */
const SANDBOX_BIN = '411111';

class IssuerUnavailableError extends Error {
  constructor() {
    super('The simulated card issuer is unavailable');
    this.name = 'IssuerUnavailableError';
  }
}

/** A Luhn-valid 16-digit number in the sandbox BIN range. */
function sandboxPan(): string {
  let body = SANDBOX_BIN;
  while (body.length < 15) body += String(randomInt(10));
  return body + String(luhnCheckDigit(body));
}

export function createSimulatedIssuer(): SimulatedIssuer {
  let failures = 0;
  let available = true;
  let calls = 0;
  let waiting = 0;
  let held: Promise<boolean> | undefined;
  const gate = async () => {
    calls++;
    if (held) {
      waiting++;
      const fail = await held.finally(() => waiting--);
      if (fail) throw new IssuerUnavailableError();
    }
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
    hold() {
      let release: (fail: boolean) => void = () => {};
      const gateOpen = new Promise<boolean>((resolve) => {
        release = resolve;
      });
      held = gateOpen;
      return ({ fail = false } = {}) => {
        if (held === gateOpen) held = undefined;
        release(fail);
      };
    },
    get waiting() {
      return waiting;
    },
  };
}
