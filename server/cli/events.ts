// `finance events listen` over the API, like a payment provider's CLI: polls the company's events
// (`GET /events/v1/events` with `createdAfter`), prints each new one, and forwards it signed
// (Standard Webhooks) to a local URL as a registered endpoint would, saying why a forward failed.
// It needs client credentials with `events:read`, never the database.
import { setTimeout as sleep } from 'node:timers/promises';
import { paginate, type FinanceClient } from '@company-finance/client';
import type { components } from '../../generated/openapi.js';
import { signatureHeaders } from '../areas/webhooks/sign.js';

type Event = components['schemas']['Event'];

interface ListenOptions {
  api: FinanceClient;
  /** POST each event here, signed with `secret`. */
  forwardTo?: string;
  secret: string;
  types?: string[];
  pollMs?: number;
  /** How long a forward may take before it counts as failed; default 10 s. */
  forwardTimeoutMs?: number;
  signal: AbortSignal;
  print: (line: string) => void;
}

/** Events may share a millisecond, and one written in the same millisecond after a poll is still new. */
const OVERLAP_MS = 1_000;

/** Follows the company's events from now until `signal` aborts; resolves to the events seen. */
export async function listenForEvents(options: ListenOptions): Promise<Event[]> {
  const { api, forwardTo, signal, print, pollMs = 1_000 } = options;
  const types = options.types && options.types.length > 0 ? options.types : undefined;
  const seen = new Map<string, string>(); // id → createdAt, kept for the overlap window only
  const events: Event[] = [];
  let newest: string | undefined;

  const page = (createdAfter: string | undefined) =>
    linked(signal, async (poll) => {
      const found: Event[] = [];
      const query = { limit: 100, ...(types ? { types } : {}), ...(createdAfter ? { createdAfter } : {}) };
      for await (const event of paginate(api, '/events/v1/events', 'items', { query }, { signal: poll })) {
        if (!seen.has(event.id)) found.push(event);
      }
      return found.reverse(); // oldest first
    });
  for (const event of await page(undefined).catch(failed(signal))) {
    seen.set(event.id, event.createdAt);
    if (!newest || event.createdAt > newest) newest = event.createdAt;
  }
  if (forwardTo) print(`Forwarding events to ${forwardTo} (signing secret ${options.secret})`);

  while (!signal.aborted) {
    const since = newest ? new Date(Date.parse(newest) - OVERLAP_MS).toISOString() : undefined;
    const fresh = await page(since).catch(failed(signal));
    for (const event of fresh) {
      seen.set(event.id, event.createdAt);
      if (!newest || event.createdAt > newest) newest = event.createdAt;
      events.push(event);
      const outcome = forwardTo ? ` -> ${await forward(forwardTo, event, options)}` : '';
      print(`${event.createdAt}  ${event.type.padEnd(34)} ${event.id}${outcome}`);
    }
    if (newest) {
      const horizon = new Date(Date.parse(newest) - 2 * OVERLAP_MS).toISOString();
      for (const [id, at] of seen) if (at < horizon) seen.delete(id);
    }
    if (fresh.length === 0 && !signal.aborted) await sleep(pollMs, undefined, { signal }).catch(() => undefined);
  }
  return events;
}

/**
 * Runs `work` with a signal of its own that follows `signal`, and lets go of `signal` afterwards.
 * Each request keeps a listener on the signal it is given until it is garbage-collected; given the
 * listen's own signal, a poll every second would pile them up on it for as long as it runs.
 */
async function linked<T>(signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const follow = () => own.abort(signal.reason);
  signal.addEventListener('abort', follow, { once: true });
  try {
    return await work(own.signal);
  } finally {
    signal.removeEventListener('abort', follow);
  }
}

/** A failed poll ends the listen with the API's own words, unless it failed because we stopped. */
const failed = (signal: AbortSignal) => (err: unknown) => {
  if (signal.aborted) return [] as Event[];
  throw err;
};

/** POSTs one event signed; returns the status or why it did not arrive. */
async function forward(url: string, event: Event, options: ListenOptions): Promise<string> {
  const body = JSON.stringify(event);
  const timeoutMs = options.forwardTimeoutMs ?? 10_000;
  try {
    return await linked(options.signal, async (signal) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signatureHeaders(`msg_${event.id.replace(/^evt_/, '')}`, new Date(), body, [options.secret]),
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      await res.body?.cancel().catch(() => undefined);
      return `${res.status} ${res.statusText}`.trim();
    });
  } catch (err) {
    return `failed: ${whyForwardFailed(err, url, timeoutMs)}`;
  }
}

/** fetch's "fetch failed", in words: connection refused, unknown host, time-out, … */
function whyForwardFailed(err: unknown, url: string, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  if (e.name === 'AbortError') return 'stopped';
  const host = new URL(url).host;
  switch (e.cause?.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${host} (is the receiver running?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `unknown host ${new URL(url).hostname}`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `connection closed by ${host} before it answered`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return `no answer from ${host}`;
    default:
      return e.cause?.message ?? e.message ?? String(err);
  }
}
