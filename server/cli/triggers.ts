// `finance events trigger TYPE`: causes an event by making the real change through the API, so the
// event's object exists and can be fetched by a handler that re-reads it. One line per event type
// says how; types whose change comes from outside the API (card purchases, an accepted invite,
// ingested statements) wait for the sandbox helpers and are listed as such.
import { randomUUID } from 'node:crypto';
import { FinanceApiError, type FinanceClient } from '@company-finance/client';
import type { components } from '../../generated/openapi.js';
import { EVENT_TYPES } from '../db/event-types.js';

type Event = components['schemas']['Event'];
type Result = { data?: unknown; error?: unknown; response: Response };

/** The request id of a successful call (the event records it); a failed call throws its error body. */
async function call<T extends Result>(
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

const stamp = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const name = (what: string) => `${what} (finance events trigger ${stamp()}-${randomUUID().slice(0, 4)})`;

const createCostCenter = (api: FinanceClient) =>
  call(api.POST('/cost-centers/v1/cost-centers', { body: { name: name('Cost center') } }));
const createSupplier = (api: FinanceClient) =>
  call(api.POST('/suppliers/v1/suppliers', { body: { name: name('Supplier') } }));
const createCategory = (api: FinanceClient) =>
  call(api.POST('/categories/v1/categories', { body: { name: name('Category') } }));

/** A processed banking transaction (status 2), reconciled or not as asked, else a clear failure. */
async function bankingTransaction(api: FinanceClient, wasConciled?: boolean) {
  const query = { status: [2 as const], limit: 1, ...(wasConciled === undefined ? {} : { wasConciled }) };
  const { data } = await call(api.GET('/statements/v1/banking', { params: { query } }));
  const found = data.transactions[0];
  if (!found) throw new Error('the company has no processed banking transaction to change (seed it: finance seed)');
  return found.id;
}

async function cardTransaction(api: FinanceClient, unreconciled: boolean) {
  for await (const t of api.paginate.creditCardTransactions({ limit: 100 })) {
    if (t.status === 2 && (!unreconciled || !t.conciliation.conciled)) return t.id;
  }
  throw new Error('the company has no processed credit-card transaction to change (seed it: finance seed)');
}

const issueCard = (api: FinanceClient) =>
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

/** How each event type is caused through today's API; the request id of the call that caused it. */
export const TRIGGERS: Partial<Record<Event['type'], (api: FinanceClient) => Promise<{ requestId: string }>>> = {
  'cost_center.created': createCostCenter,
  'cost_center.updated': async (api) => {
    const { data } = await createCostCenter(api);
    const path = { id: data.id };
    return call(api.PATCH('/cost-centers/v1/cost-centers/{id}', { params: { path }, body: { name: name('Renamed') } }));
  },
  'cost_center.deleted': async (api) => {
    const { data } = await createCostCenter(api);
    return call(api.DELETE('/cost-centers/v1/cost-centers/{id}', { params: { path: { id: data.id } } }));
  },
  'supplier.created': createSupplier,
  'supplier.updated': async (api) => {
    const { data } = await createSupplier(api);
    const path = { id: data.id };
    return call(api.PUT('/suppliers/v1/suppliers/{id}', { params: { path }, body: { name: name('Renamed') } }));
  },
  'supplier.deleted': async (api) => {
    const { data } = await createSupplier(api);
    return call(api.DELETE('/suppliers/v1/suppliers/{id}', { params: { path: { id: data.id } } }));
  },
  'category.created': createCategory,
  'category.updated': async (api) => {
    const { data } = await createCategory(api);
    const path = { id: data.id };
    return call(api.PATCH('/categories/v1/categories/{id}', { params: { path }, body: { name: name('Renamed') } }));
  },
  'category.deleted': async (api) => {
    const { data } = await createCategory(api);
    return call(api.DELETE('/categories/v1/categories', { params: { query: { ids: [data.id] } } }));
  },
  'banking_transaction.updated': async (api) => {
    const path = { transactionId: await bankingTransaction(api) };
    const body = { notes: `Noted by finance events trigger at ${new Date().toISOString()}` };
    return call(api.PATCH('/statements/v1/banking/{transactionId}', { params: { path }, body }));
  },
  'banking_transaction.reconciled': async (api) => {
    const path = { transactionId: await bankingTransaction(api, false) };
    return call(api.PATCH('/statements/v1/banking/{transactionId}', { params: { path }, body: { isConciled: true } }));
  },
  'credit_card_transaction.updated': async (api) => {
    const path = { transactionId: await cardTransaction(api, false) };
    const body = { notes: `Noted by finance events trigger at ${new Date().toISOString()}` };
    return call(api.PATCH('/statements/v1/credit-card/{transactionId}', { params: { path }, body }));
  },
  'credit_card_transaction.reconciled': async (api) => {
    const path = { transactionId: await cardTransaction(api, true) };
    return call(
      api.PATCH('/statements/v1/credit-card/{transactionId}', { params: { path }, body: { isConciled: true } }),
    );
  },
  'invite.created': async (api) => {
    const { data: roles } = await call(api.GET('/users/v1/roles'));
    const invitable = roles.items.filter((r) => r.profile !== 'MAIN');
    const role = invitable.find((r) => r.profile !== 'RESPONSIBLE') ?? invitable[0];
    if (!role) throw new Error('the company has no roles to invite with (seed it: finance seed)');
    const email = `trigger-${stamp()}-${randomUUID().slice(0, 6)}@example.com`;
    return call(api.POST('/users/v1/invites', { body: { email, roleId: role.id } }));
  },
  'vcn.issued': issueCard,
  'vcn.updated': async (api) => {
    const { data } = await issueCard(api);
    const path = { vcnId: data.vcnId };
    return call(api.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path }, body: { limit: { value: 600 } } }));
  },
};

/** The event types `trigger` cannot cause through today's API, and what they wait for. */
export const UNTRIGGERABLE = EVENT_TYPES.filter((type) => !(type in TRIGGERS));

/**
 * Causes `type` through the API and returns its event, found by the request id of the change
 * (`Event.requestId`).
 */
export async function triggerEvent(api: FinanceClient, type: string): Promise<Event> {
  const cause = TRIGGERS[type as Event['type']];
  if (!cause) {
    const known = (EVENT_TYPES as readonly string[]).includes(type);
    throw new Error(
      known
        ? `${type} cannot be caused through the API yet (it comes from outside: card network, invitee, statement feed); triggerable types: ${Object.keys(TRIGGERS).join(', ')}`
        : `unknown event type ${type}: use one of ${Object.keys(TRIGGERS).join(', ')}`,
    );
  }
  const { requestId } = await cause(api);
  // Newest first: the event is on the first page (the server's clock decides createdAt, not ours).
  const { data } = await call(api.GET('/events/v1/events', { params: { query: { types: [type], limit: 100 } } }));
  const event = data.items.find((e) => e.requestId === requestId);
  if (!event) throw new Error(`the change was made (request ${requestId}) but no ${type} event records it`);
  return event;
}
