// The built-in card issuer: a simulated card processor that issues Luhn-valid numbers in a test
// BIN range, and that tests (and the sandbox) can make fail, slow or unavailable.
import { randomInt, randomUUID } from 'node:crypto';
import { luhnCheckDigit } from '../areas/vcn/crypto.js';
import type { CardIssuer } from '../kit/card-issuer.js';

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
