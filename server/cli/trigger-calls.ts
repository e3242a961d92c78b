// What the `finance events trigger` table is built from: a call that answers its request id or throws
// the error body, names that say who made them, a card issued for the trigger, and the event a change
// recorded.
import { randomUUID } from 'node:crypto';
import { FinanceApiError, type FinanceClient } from '@company-finance/client';
import type { components } from '../../generated/openapi.js';

export type Event = components['schemas']['Event'];
type Result = { data?: unknown; error?: unknown; response: Response };

/** The request id of a successful call (the event records it); a failed call throws its error body. */
export async function call<T extends Result>(
  pending: Promise<T>,
): Promise<{ data: NonNullable<T['data']>; requestId: string }> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) {
    const body = (error ?? {}) as { error?: string; message?: string; code?: number };
    throw new FinanceApiError({
      status: response.status,
      error: body.error ?? response.statusText,
      message: body.message ?? `HTTP ${response.status}`,
      code: body.code ?? response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      body: error,
    });
  }
  return { data: data as NonNullable<T['data']>, requestId: response.headers.get('x-request-id') ?? '' };
}

export const stamp = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14);
export const name = (what: string) => `${what} (finance events trigger ${stamp()}-${randomUUID().slice(0, 4)})`;

/** A CUSTOM card with a ceiling of BRL 500, valid from the company's day for 60 days. */
export const issueCard = (api: FinanceClient) =>
  call(
    api.POST('/credit-cards/v1/vcns', {
      body: {
        type: 'CUSTOM',
        limit: { value: 500, currency: 'BRL' },
        customUse: { id: `TRIGGER-${stamp()}-${randomUUID().slice(0, 8)}`, description: 'finance events trigger' },
        requestor: { name: 'Events Trigger', email: 'events-trigger@example.com' },
      },
    }),
  );

/**
 * The `type` event a change recorded: the one with the change's request id, or, for the sandbox's card
 * events (the card network's doing, recorded with no request id), the one of card `vcnId`. Newest
 * first: it is on the first page (the server's clock decides createdAt, not ours).
 */
export async function recordedEvent(api: FinanceClient, type: string, cause: { requestId: string; vcnId?: string }) {
  const { data } = await call(api.GET('/events/v1/events', { params: { query: { types: [type], limit: 100 } } }));
  const event = data.items.find((e) =>
    cause.vcnId === undefined
      ? e.requestId === cause.requestId
      : (e.data.object as { vcnId?: string }).vcnId === cause.vcnId,
  );
  if (!event) throw new Error(`the change was made (request ${cause.requestId}) but no ${type} event records it`);
  return event;
}
