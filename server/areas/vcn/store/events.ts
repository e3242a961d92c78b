// The `vcn.*` events: the card as `getVcn` shows it (never card data), written in the change's transaction.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { companyTimeZone } from '../../auth/public.js';
import { changedAttributes, recordEvent } from '../../events/public.js';
import type { EventType } from '../../events/public.js';
import { localDate } from '../../../lib/time.js';
import { presentDetails } from '../present.js';
import type { VcnRow } from '../tables.js';
import type { components } from '../../../../generated/openapi.js';
import { spentOn } from './cards.js';

const pick = (object: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, object[key]]));

/** The card as shown, in its company's current day. */
export async function shownCard(db: Kysely<Database>, card: VcnRow, now: Date): Promise<Record<string, unknown>> {
  const timeZone = await companyTimeZone(db, card.company_id);
  if (timeZone === undefined) throw new Error(`no company ${card.company_id}`);
  const spending = await spentOn(db, card.company_id, card.id);
  return presentDetails(card, spending, localDate(now, timeZone)) as unknown as Record<string, unknown>;
}

/**
 * Records a `vcn.*` event of `card` after the change; `before` (the card before) gives previousAttributes,
 * `authorization` the purchase behind `vcn.authorized` and `vcn.declined`.
 */
export async function recordVcnEvent(
  db: Kysely<Database>,
  type: Extract<EventType, `vcn.${string}`>,
  card: VcnRow,
  now: Date,
  options: {
    /** Who made the change; the platform's when absent (the card network, expiry). */
    actor?: Actor;
    before?: Record<string, unknown>;
    authorization?: components['schemas']['VcnEventAuthorization'];
  } = {},
): Promise<void> {
  const object = await shownCard(db, card, now);
  await recordEvent(db, now, {
    companyId: card.company_id,
    type,
    ...(options.actor ?? PLATFORM),
    object,
    previousAttributes: options.before
      ? changedAttributes(options.before, pick(object, Object.keys(options.before)))
      : undefined,
    authorization: options.authorization,
  });
}
