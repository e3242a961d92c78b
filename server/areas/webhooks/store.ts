// Webhook endpoints of a company: the URL, the events it wants, its signing secret (and the
// previous one for 24 hours after a rotation).
import { randomBytes } from 'node:crypto';
import { monotonicUlids } from '../../lib/ulid.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { WebhookEndpointRow, WebhookEndpointStatus } from './tables.js';
import { failPending } from './queue.js';
import { recordEvent } from '../events/public.js';
import { presentEndpoint } from './present.js';
import { writeTransaction } from '../../db/transaction.js';
import type { AuditWrite } from '../audit/public.js';

type Db = Kysely<Database>;

const nextUlid = monotonicUlids();

/** How long the previous secret still signs after a rotation. */
const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;
/** An endpoint failing for this long is disabled. */
const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

/** A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

interface EndpointInput {
  url: string;
  enabledEvents: string[];
  description?: string | null;
  status?: WebhookEndpointStatus;
}

export async function createEndpoint(
  db: Db,
  companyId: string,
  input: EndpointInput,
  now: Date,
  audit?: AuditWrite,
): Promise<WebhookEndpointRow> {
  const at = now.toISOString();
  const row: WebhookEndpointRow = {
    id: `we_${nextUlid(now.getTime())}`,
    company_id: companyId,
    url: input.url,
    description: input.description ?? null,
    enabled_events: JSON.stringify([...new Set(input.enabledEvents)]),
    status: input.status ?? 'enabled',
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    failing_since: null,
    created_at: at,
    updated_at: at,
  };
  await writeTransaction(db, async (trx) => {
    await trx.insertInto('webhook_endpoints').values(row).execute();
    await audit?.(trx, row.id, { url: row.url });
  });
  return row;
}

export async function findEndpoint(db: Db, companyId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A page of the company's endpoints by id (`limit + 1` rows). */
export async function listEndpoints(
  db: Db,
  companyId: string,
  limit: number,
  afterId?: string,
): Promise<WebhookEndpointRow[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId);
  if (afterId) query = query.where('id', '>', afterId);
  return query
    .orderBy('id')
    .limit(limit + 1)
    .execute();
}

export async function updateEndpoint(
  db: Db,
  companyId: string,
  id: string,
  input: Partial<EndpointInput>,
  now: Date,
  audit?: AuditWrite,
): Promise<WebhookEndpointRow | undefined> {
  return writeTransaction(db, async (trx) => {
    const row = await updateRow(trx, companyId, id, input, now);
    if (row) await audit?.(trx, id, { changed: Object.keys(input).sort() });
    return row;
  });
}

const updateRow = (db: Db, companyId: string, id: string, input: Partial<EndpointInput>, now: Date) =>
  db
    .updateTable('webhook_endpoints')
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.enabledEvents !== undefined
        ? { enabled_events: JSON.stringify([...new Set(input.enabledEvents)]) }
        : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      // Enabling again starts a fresh failure window.
      ...(input.status !== undefined ? { status: input.status, failing_since: null } : {}),
      updated_at: now.toISOString(),
    })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

export async function deleteEndpoint(db: Db, companyId: string, id: string, audit?: AuditWrite): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    await trx
      .deleteFrom('webhook_deliveries')
      .where('company_id', '=', companyId)
      .where('endpoint_id', '=', id)
      .execute();
    const result = await trx
      .deleteFrom('webhook_endpoints')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    const deleted = result.numDeletedRows > 0n;
    if (deleted) await audit?.(trx, id);
    return deleted;
  });
}

/** A new secret; the current one keeps signing (alongside) for 24 hours. */
export async function rotateSecret(
  db: Db,
  companyId: string,
  id: string,
  now: Date,
  audit?: AuditWrite,
): Promise<WebhookEndpointRow | undefined> {
  return writeTransaction(db, async (trx) => {
    const current = await findEndpoint(trx, companyId, id);
    if (!current) return undefined;
    await audit?.(trx, id);
    return trx
      .updateTable('webhook_endpoints')
      .set({
        secret: newWebhookSecret(),
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS).toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** The secrets that sign a delivery now: the current one, and the previous one within its 24 hours. */
export const signingSecrets = (endpoint: WebhookEndpointRow, now: Date): string[] =>
  endpoint.previous_secret &&
  endpoint.previous_secret_expires_at &&
  endpoint.previous_secret_expires_at > now.toISOString()
    ? [endpoint.secret, endpoint.previous_secret]
    : [endpoint.secret];

/** A success clears the endpoint's failure window. */
export async function markEndpointHealthy(db: Db, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute();
}

/**
 * A failed attempt: opens the failure window if none is open; after 3 days of failures the endpoint
 * is disabled, its pending deliveries given up, and `webhook_endpoint.disabled` recorded. True when disabled now.
 */
export async function markEndpointFailing(db: Db, endpointId: string, now: Date): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const endpoint = await trx
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', endpointId)
      .executeTakeFirst();
    if (endpoint?.status !== 'enabled') return false;
    if (!endpoint.failing_since) {
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: now.toISOString() })
        .where('id', '=', endpointId)
        .execute();
      return false;
    }
    if (now.getTime() - new Date(endpoint.failing_since).getTime() < DISABLE_AFTER_MS) return false;
    const disabled = await trx
      .updateTable('webhook_endpoints')
      .set({ status: 'disabled', updated_at: now.toISOString() })
      .where('id', '=', endpointId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await failPending(trx, endpointId);
    await recordEvent(trx, now, {
      companyId: endpoint.company_id,
      type: 'webhook_endpoint.disabled',
      requestId: null,
      object: presentEndpoint(disabled),
      previousAttributes: { status: 'enabled' },
    });
    return true;
  });
}

export async function findEndpointById(db: Db, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}
