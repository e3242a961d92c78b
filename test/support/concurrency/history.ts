// What the clients did and saw: one entry per attempt (a retry is another attempt of the same
// operation), in the order they ended, with times in ms since the run began. The checker judges
// this history and the store's final state; a failing run writes it out whole.
import type { Answer } from './http.js';

export type Statement = 'banking' | 'credit-card';

/** "This write applies only if the row is still at this version": a PATCH's If-Match, a batch item's ifMatch. */
export interface Precondition {
  statement: Statement;
  id: string;
  etag: string;
}

export interface Attempt {
  /** The operation's index in the plan, and the client that ran it. */
  op: number;
  client: number;
  what: string;
  key?: string;
  preconditions?: Precondition[];
  /** The process it was sent to: how many times the server had been killed by then (over the whole file). */
  generation: number;
  start: number;
  end: number;
  /** The status, or `abandoned` / `network` when no answer came. */
  outcome: number | 'abandoned' | 'network';
  reason?: string;
  retryAfter?: string;
  replayed?: boolean;
  /** The ids a create answered. */
  ids?: string[];
}

interface Crash {
  at: number;
  /** Keyed writes with an attempt in flight when the process was killed. */
  inFlight: string[];
  restartedAt: number;
}

export class History {
  readonly attempts: Attempt[] = [];
  readonly crashes: Crash[] = [];
  /** Keys with an attempt in flight now (the crash picks its moment by them). */
  readonly inFlight = new Map<string, number>();
  private readonly t0 = performance.now();

  now(): number {
    return Math.round((performance.now() - this.t0) * 10) / 10;
  }

  /** Records the attempt `answer` ended, with what an answer says. */
  record(attempt: Omit<Attempt, 'end' | 'outcome'>, answer: Answer, ids?: string[]): Attempt {
    const entry: Attempt = {
      ...attempt,
      end: this.now(),
      outcome: answer.kind === 'answer' ? answer.status : answer.kind,
    };
    if (answer.kind === 'answer') {
      const reason = (answer.body as { reason?: unknown } | undefined)?.reason;
      if (typeof reason === 'string') entry.reason = reason;
      const retryAfter = answer.headers.get('retry-after');
      if (retryAfter !== null) entry.retryAfter = retryAfter;
      if (answer.headers.get('idempotent-replayed') === 'true') entry.replayed = true;
      if (ids) entry.ids = ids;
    }
    this.attempts.push(entry);
    return entry;
  }

  /** Runs `send` as an attempt of keyed write `key`, counted in flight meanwhile. */
  async inFlightAs<T>(key: string, send: () => Promise<T>): Promise<T> {
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    try {
      return await send();
    } finally {
      const left = this.inFlight.get(key)! - 1;
      if (left === 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
    }
  }
}
