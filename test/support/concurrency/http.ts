// Requests as the checker's clients send them: plain HTTP through undici, so that a request can be
// abandoned at any moment (the connection is destroyed, as a client that timed out does), and an
// answer is whatever came back, never thrown. One connection pool per run, closed with it.
import { Agent, fetch } from 'undici';
import type { Target } from './target.js';

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Answer =
  | { kind: 'answer'; status: number; headers: Headers; body: unknown }
  /** The client gave up (`abandoned`), or the connection failed: the outcome is unknown. */
  | { kind: 'abandoned' | 'network'; message: string };

/** A request that hangs this long is given up as a network failure. */
const REQUEST_TIMEOUT_MS = 30_000;

export class Http {
  private readonly agent = new Agent({ keepAliveTimeout: 2_000 });

  constructor(private readonly target: Target) {}

  /** Sends `call`; with `abandonAfterMs` the connection is dropped that long after sending. */
  async send(call: Call, abandonAfterMs?: number): Promise<Answer> {
    const controller = new AbortController();
    const abandon = abandonAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), abandonAfterMs);
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
    try {
      const res = await fetch(`${this.target.baseUrl}${call.path}`, {
        method: call.method,
        headers: {
          Authorization: `Bearer ${this.target.token}`,
          ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...call.headers,
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        dispatcher: this.agent,
        signal,
      });
      const text = await res.text();
      const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
      return {
        kind: 'answer',
        status: res.status,
        headers: res.headers as Headers,
        body: json ? JSON.parse(text) : text,
      };
    } catch (err) {
      const message =
        err instanceof Error ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ''}` : String(err);
      return { kind: controller.signal.aborted ? 'abandoned' : 'network', message };
    } finally {
      clearTimeout(abandon);
    }
  }

  close(): Promise<void> {
    return this.agent.destroy();
  }
}
