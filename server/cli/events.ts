// The sandbox's event tools behind `finance events`:
//  - listen: follows a company's events in the database as they are written, prints them, and
//    forwards each one signed (Standard Webhooks) to a local URL, like a registered endpoint would;
//  - trigger: writes a realistic event of a type (its object taken from the contract's example
//    payload for the type, with the company's id), which is delivered to the company's endpoints.
import type { Db } from '../db/database.js';
import { recordEvent, presentEvent } from '../db/event-log.js';
import type { EventRow } from '../db/event-tables.js';
import { EVENT_TYPES, type EventType } from '../db/event-types.js';
import type { Clock } from '../lib/clock.js';
import { contract } from '../contract/index.js';
import { eventsAfter } from '../areas/events/store.js';
import { signatureHeaders } from '../areas/webhooks/sign.js';
import { newWebhookSecret } from '../areas/webhooks/store.js';

interface ListenOptions {
  db: Db;
  companyId: string;
  /** POST each event here, signed with `secret`. */
  forwardTo?: string;
  secret?: string;
  types?: string[];
  /** Follow from this event id (exclusive); default: from now. */
  afterId?: string;
  pollMs?: number;
  signal: AbortSignal;
  print: (line: string) => void;
}

/** Follows the company's events until `signal` aborts; resolves to the events seen. */
export async function listenForEvents(options: ListenOptions): Promise<EventRow[]> {
  const { db, companyId, forwardTo, signal, print, pollMs = 250 } = options;
  const secret = options.secret ?? newWebhookSecret();
  if (forwardTo) print(`Forwarding events to ${forwardTo}; signing secret ${secret}`);
  let afterId = options.afterId ?? `evt_${'0'.repeat(26)}`;
  if (options.afterId === undefined) {
    const newest = await db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', companyId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (newest) afterId = newest.id;
  }
  const seen: EventRow[] = [];
  while (!signal.aborted) {
    const rows = await eventsAfter(db, companyId, afterId, options.types);
    for (const row of rows) {
      afterId = row.id;
      seen.push(row);
      const body = JSON.stringify(presentEvent(row));
      let outcome = '';
      if (forwardTo) {
        try {
          const res = await fetch(forwardTo, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...signatureHeaders(`msg_${row.id.slice(4)}`, new Date(), body, [secret]),
            },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          await res.body?.cancel().catch(() => undefined);
          outcome = ` -> ${res.status}`;
        } catch (err) {
          outcome = ` -> failed: ${(err as Error).message}`;
        }
      }
      print(`${row.created_at}  ${row.type.padEnd(34)} ${row.id}${outcome}`);
    }
    if (rows.length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  }
  return seen;
}

/** The contract's example object of an event type (the `webhooks` section). */
function exampleObject(type: EventType): Record<string, unknown> {
  const example = contract().eventExample(type);
  if (!example) throw new Error(`the contract has no example payload for ${type}`);
  return example;
}

/** Writes a realistic event of `type` for the company (delivered to its endpoints like any other). */
export async function triggerEvent(db: Db, clock: Clock, companyId: string, type: string): Promise<EventRow> {
  if (!(EVENT_TYPES as readonly string[]).includes(type))
    throw new Error(`unknown event type ${type}: use one of ${EVENT_TYPES.join(', ')}`);
  const object = exampleObject(type as EventType);
  if ('companyId' in object) object.companyId = companyId;
  return db
    .transaction()
    .execute((trx) => recordEvent(trx, clock.now(), { companyId, type: type as EventType, requestId: null, object }));
}
