// `finance events trigger TYPE`: causes an event by making the real change through the API, so the
// event's object exists and can be fetched by a handler that re-reads it. One line per event type
// says how; what the outside world does (card purchases, an accepted invite, ingested statements,
// time passing) goes through the sandbox helpers (docs/sandbox.md). Types no API call can cause are
// listed with the reason.
import { randomUUID } from 'node:crypto';
import type { FinanceClient } from '@company-finance/client';
import { EVENT_TYPES } from '../areas/events/types.js';
import { newUlid } from '../lib/ulid.js';
import { call, type Event, issueCard, name, recordedEvent, stamp } from './trigger-calls.js';

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

/**
 * A processed credit-card transaction (not reconciled, when asked); when the company has none, one
 * arrives through the sandbox helper (its defaults: processed, not reconciled), as a trigger makes
 * what it needs.
 */
async function cardTransaction(api: FinanceClient, unreconciled: boolean) {
  for await (const t of api.paginate.creditCardTransactions({ limit: 100 })) {
    if (t.status === 2 && (!unreconciled || !t.conciliation.conciled)) return t.id;
  }
  const { data } = await call(api.POST('/sandbox/v1/credit-card-transactions', { body: { amount: 42.5 } }));
  if (!('id' in data)) throw new Error('one credit-card transaction was sent and a batch came back');
  return data.id;
}

/**
 * A corporate card in ACTIVATED status; when the company has none, a purchase on a new card arrives
 * through the sandbox (POST /sandbox/v1/credit-card-transactions registers the card), as a trigger makes what it needs.
 */
async function activatedCard(api: FinanceClient) {
  for await (const card of api.paginate.cards({ status: 'ACTIVATED', limit: 1 })) return card.id;
  const cardId = randomUUID();
  const body = {
    cardId,
    finalCardNumber: cardId
      .slice(-4)
      .replace(/[^0-9]/g, '7')
      .padStart(4, '0'),
    amount: 42.5,
  };
  await call(api.POST('/sandbox/v1/credit-card-transactions', { body }));
  return cardId;
}

/** Blocks a card (and unblocks it after, when asked): the last call. */
async function cardBlock(api: FinanceClient, unblock: boolean) {
  const path = { id: await activatedCard(api) };
  const body = { reason: `Blocked by finance events trigger at ${new Date().toISOString()}` };
  const blocked = await call(api.POST('/credit-cards/v1/{id}/block', { params: { path }, body }));
  return unblock ? call(api.POST('/credit-cards/v1/{id}/unblock', { params: { path } })) : blocked;
}

/** A pending invite to a new address, with a role other than the owner's (an administrator's only if no other). */
async function invite(api: FinanceClient) {
  const { data: roles } = await call(api.GET('/users/v1/roles'));
  const invitable = roles.items.filter((r) => r.profile !== 'MAIN');
  const role = invitable.find((r) => r.profile !== 'RESPONSIBLE') ?? invitable[0];
  if (!role) throw new Error('the company has no roles to invite with (seed it: finance seed)');
  const email = `trigger-${stamp()}-${randomUUID().slice(0, 6)}@example.com`;
  return call(api.POST('/users/v1/invites', { body: { email, roleId: role.id } }));
}

/** An invite the invitee accepted (the sandbox helper): the accepting call and the new user's id. */
async function acceptedInvite(api: FinanceClient) {
  const created = await recordedEvent(api, 'invite.created', await invite(api));
  const path = { inviteId: String((created.data.object as { id: string }).id) };
  const body = { name: name('Invitee') };
  const accepted = await call(api.POST('/sandbox/v1/invites/{inviteId}/accept', { params: { path }, body }));
  return { accepted, userId: accepted.data.id };
}

/** A banking transaction arriving (the sandbox helper): a copy of a processed one, not reconciled (pending when asked). */
async function arrivedTransaction(api: FinanceClient, status: 2 | 3 = 2) {
  const { data } = await call(api.GET('/statements/v1/banking', { params: { query: { status: [2], limit: 1 } } }));
  const found = data.transactions[0];
  if (!found) throw new Error('the company has no processed banking transaction to copy (seed it: finance seed)');
  const { id, companyId, statusDescription, showReceipt, attachments, metadata, accountingSync, ...arriving } = found;
  const description = `Arrived by finance events trigger at ${new Date().toISOString()}`;
  const body = {
    ...arriving,
    status,
    description,
    notes: '',
    conciliation: { description: 'Not reconciled', conciled: false },
  };
  const { data: arrived, requestId } = await call(api.POST('/sandbox/v1/banking-transactions', { body }));
  if (!('id' in arrived)) throw new Error('one banking transaction was sent and a batch came back');
  return { requestId, transactionId: arrived.id };
}

/** A credit-card transaction arriving (the sandbox helper): a copy of a processed one under a new id, not reconciled. */
async function arrivedCardTransaction(api: FinanceClient, status: 2 | 3 = 2) {
  const { data } = await call(api.GET('/statements/v1/credit-card', { params: { query: { limit: 5 } } }));
  const found = data.transactions[0];
  if (!found) throw new Error('the company has no credit-card transaction to copy (seed it: finance seed)');
  // What the platform assigns or the company's ERP records is not what arrives from the card processor.
  const { statusDescription, billDueDate, attachments, type, metadata, accountingSync, ...arriving } = found;
  const body = {
    ...arriving,
    id: newUlid(),
    status,
    description: `Arrived by finance events trigger at ${new Date().toISOString()}`,
    notes: '',
    conciliation: { description: 'Not reconciled' as const, conciled: false as const },
  };
  return call(api.POST('/sandbox/v1/credit-card-transactions', { body }));
}

/**
 * A purchase with a new card (ceiling BRL 500): approved up to the ceiling, declined over it
 * (`LIMIT_EXCEEDED`); its event carries the purchase in `data.authorization`.
 */
async function purchase(api: FinanceClient, value: number) {
  const { vcnId } = (await issueCard(api)).data;
  const body = { amount: { value, currency: 'BRL' as const }, merchant: { name: 'PAPELARIA CENTRAL', mcc: '5943' } };
  const path = { vcnId };
  const { requestId } = await call(api.POST('/sandbox/v1/vcns/{vcnId}/authorizations', { params: { path }, body }));
  return { requestId, vcnId };
}

/** A new card's status changed by the card network (the sandbox helpers), in order. */
async function cardStatus(api: FinanceClient, actions: ('block' | 'unblock' | 'cancel')[]) {
  const { vcnId } = (await issueCard(api)).data;
  let requestId = '';
  for (const action of actions)
    ({ requestId } = await call(api.POST(`/sandbox/v1/vcns/{vcnId}/${action}`, { params: { path: { vcnId } } })));
  return { requestId, vcnId };
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** How each event type is caused through today's API; the request id of the call that caused it. */
export const TRIGGERS: Partial<
  Record<Event['type'], (api: FinanceClient) => Promise<{ requestId: string; vcnId?: string }>>
> = {
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
  'banking_transaction.created': (api) => arrivedTransaction(api),
  'credit_card_transaction.created': (api) => arrivedCardTransaction(api),
  'banking_transaction.removed': async (api) => {
    const path = { transactionId: (await arrivedTransaction(api, 3)).transactionId };
    return call(api.DELETE('/sandbox/v1/banking-transactions/{transactionId}', { params: { path } }));
  },
  'credit_card_transaction.removed': async (api) => {
    const { data } = await arrivedCardTransaction(api, 3);
    if (!('id' in data)) throw new Error('one credit-card transaction was sent and a batch came back');
    const path = { transactionId: data.id };
    return call(api.DELETE('/sandbox/v1/credit-card-transactions/{transactionId}', { params: { path } }));
  },
  'statement.updates_available': async (api) => {
    const { data } = await createCostCenter(api);
    const path = { transactionId: await bankingTransaction(api) };
    await call(
      api.PATCH('/statements/v1/banking/{transactionId}', { params: { path }, body: { costCenterId: data.id } }),
    );
    const renamed = { params: { path: { id: data.id } }, body: { name: name('Renamed') } };
    return call(api.PATCH('/cost-centers/v1/cost-centers/{id}', renamed));
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
  'invite.created': invite,
  'invite.accepted': async (api) => (await acceptedInvite(api)).accepted,
  'user.updated': async (api) => {
    const path = { userId: (await acceptedInvite(api)).userId };
    return call(api.PATCH('/users/v1/users/{userId}', { params: { path }, body: { name: name('Renamed') } }));
  },
  'user.deleted': async (api) => {
    const path = { userId: (await acceptedInvite(api)).userId };
    return call(api.DELETE('/users/v1/users/{userId}', { params: { path } }));
  },
  'statement.ingested': (api) => arrivedTransaction(api),
  'attachment.created': async (api) => {
    const transactionId = String((await arrivedTransaction(api)).transactionId);
    const body = {
      statement: 'banking' as const,
      transactionId,
      name: 'trigger.pdf',
      type: 'application/pdf' as const,
    };
    const { data } = await call(api.POST('/attachments/v1', { body }));
    // The signed upload URL takes no token: plain fetch, as a browser would send the file.
    const headers = { 'Content-Type': 'application/pdf' };
    const uploaded = await fetch(data.uploadUrl, { method: 'PUT', headers, body: '%PDF-1.4\n%%EOF\n' });
    if (!uploaded.ok) throw new Error(`the upload answered ${uploaded.status}: ${await uploaded.text()}`);
    return { requestId: uploaded.headers.get('x-request-id') ?? '' };
  },
  'card.blocked': (api) => cardBlock(api, false),
  'card.unblocked': (api) => cardBlock(api, true),
  'vcn.issued': issueCard,
  'vcn.updated': async (api) => {
    const { data } = await issueCard(api);
    const path = { vcnId: data.vcnId };
    return call(api.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path }, body: { limit: { value: 600 } } }));
  },
  'vcn.authorized': (api) => purchase(api, 12.5),
  'vcn.declined': (api) => purchase(api, 600),
  'vcn.blocked': (api) => cardStatus(api, ['block']),
  'vcn.unblocked': (api) => cardStatus(api, ['block', 'unblock']),
  'vcn.cancelled': (api) => cardStatus(api, ['cancel']),
  'vcn.expired': async (api) => {
    const { data: card } = await issueCard(api);
    const path = { vcnId: card.vcnId };
    const endDate = dayAfter(card.startDate);
    await call(api.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path }, body: { endDate } }));
    // Noon UTC of the day after the last day is that day, or the next, in every time zone.
    const to = `${dayAfter(endDate)}T12:00:00Z`;
    const { requestId } = await call(api.POST('/sandbox/v1/clock/advance', { body: { to } }));
    return { requestId, vcnId: card.vcnId };
  },
};

/** What a trigger does beyond its own new objects, for the command's help. */
export const TRIGGER_NOTES: Partial<Record<Event['type'], string>> = {
  'vcn.expired':
    "moves the company's clock forward about two days (a new card's last day is set to the day after its first, and the clock advanced to noon UTC of the day after that); it stays ahead until POST /sandbox/v1/clock/reset",
};

/** Why the event types `trigger` cannot cause are out of reach of every API call. */
const WHY_UNTRIGGERABLE: Partial<Record<Event['type'], string>> = {
  'webhook_endpoint.disabled':
    'an endpoint is disabled after 3 days of failed deliveries counted on wall time, which neither an API call nor the company clock moves',
};

/** The event types `trigger` cannot cause, each with the reason. */
export const UNTRIGGERABLE = EVENT_TYPES.filter((type) => !(type in TRIGGERS)).map(
  (type) => `${type} (${WHY_UNTRIGGERABLE[type] ?? 'no trigger yet'})`,
);

/**
 * Causes `type` through the API and returns its event, found by the request id of the change
 * (`Event.requestId`) or, for the card network's doing, by the card.
 */
export async function triggerEvent(api: FinanceClient, type: string): Promise<Event> {
  const cause = TRIGGERS[type as Event['type']];
  if (!cause) {
    const known = (EVENT_TYPES as readonly string[]).includes(type);
    const why = WHY_UNTRIGGERABLE[type as Event['type']] ?? 'no trigger yet';
    throw new Error(
      known
        ? `${type} cannot be caused through the API: ${why}; triggerable types: ${Object.keys(TRIGGERS).join(', ')}`
        : `unknown event type ${type}: use one of ${Object.keys(TRIGGERS).join(', ')}`,
    );
  }
  return recordedEvent(api, type, await cause(api));
}
