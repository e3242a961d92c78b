// Receiving webhooks: verify a delivery's Standard Webhooks signature and get the typed event.
import { Webhook } from 'standardwebhooks';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every event body the service sends, discriminated by `type` (the contract's `webhooks` section). */
export type WebhookEvent =
  | Schemas['BankingTransactionEvent']
  | Schemas['CreditCardTransactionEvent']
  | Schemas['AttachmentEvent']
  | Schemas['CostCenterEvent']
  | Schemas['SupplierEvent']
  | Schemas['CategoryEvent']
  | Schemas['UserEvent']
  | Schemas['InviteEvent']
  | Schemas['VcnEvent']
  | Schemas['StatementEvent']
  | Schemas['WebhookEndpointEvent'];

export type WebhookEventType = WebhookEvent['type'];

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Verifies a delivery and returns its event. `rawBody` is the request body exactly as received
 * (before any JSON parsing); `secret` the endpoint's `whsec_…` secret. Throws
 * `WebhookVerificationError` for anything that is not an authentic, recent delivery: a signature
 * that does not match, a timestamp more than 5 minutes away, missing headers, a body that is not
 * text or bytes, and a malformed secret (so a handler answers 400, never 500). Deduplicate by
 * `event.id`: delivery is at least once.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderBag, secret: string): WebhookEvent {
  let webhook: Webhook;
  try {
    if (typeof secret !== 'string' || !/^(whsec_)?[A-Za-z0-9+/=]+$/.test(secret))
      throw new Error('not a whsec_ secret');
    webhook = new Webhook(secret);
  } catch (error) {
    throw new WebhookVerificationError(`the signing secret is malformed (${(error as Error).message})`, {
      cause: error,
    });
  }
  try {
    if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array))
      throw new Error('the raw body must be a string or bytes (read it before JSON parsing)');
    if (!headers || typeof headers !== 'object') throw new Error('the request headers are missing');
    const payload = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
    return webhook.verify(payload, {
      'webhook-id': header(headers, 'webhook-id'),
      'webhook-timestamp': header(headers, 'webhook-timestamp'),
      'webhook-signature': header(headers, 'webhook-signature'),
    }) as WebhookEvent;
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw error;
    throw new WebhookVerificationError((error as Error).message || String(error), { cause: error });
  }
}

/**
 * The delivery is not authentic or too old. Our own class, so the package's declarations do not
 * expose standardwebhooks' (which need Node's types: a browser or `types: []` project could not
 * type-check them).
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}
