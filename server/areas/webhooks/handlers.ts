// Webhook endpoints: register, read, change, delete, rotate the secret; deliveries: list, resend.
import { defineHandlers } from '../../kit/handler.js';
import { badRequest, conflict, notFound } from '../../kit/errors.js';
import { paging } from '../../kit/paging.js';
import { createEndpoint, deleteEndpoint, findEndpoint, listEndpoints, rotateSecret, updateEndpoint } from './store.js';
import { findDelivery, listDeliveries, retryDelivery } from './queue.js';
import { presentDelivery, presentEndpoint, withSecret } from './present.js';
import { webhookUrlProblem } from './url-policy.js';
import { auditing } from '../audit/public.js';

const endpointNotFound = () => notFound('Webhook endpoint not found');

async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const problem = await webhookUrlProblem(url, allowPrivate);
  if (problem) throw badRequest(`The webhook URL is not accepted: ${problem}`, [`url: ${problem}`]);
}

function checkEvents(events: string[]): void {
  if (events.includes('*') && events.length > 1)
    throw badRequest('enabledEvents is either ["*"] or a list of event types', [
      'enabledEvents: "*" cannot be combined with types',
    ]);
}

export const handlers = defineHandlers({
  listWebhookEndpoints: async ({ query }, ctx) => {
    const page = paging('listWebhookEndpoints', ctx, query, {}, ['string']);
    const rows = await listEndpoints(ctx.db, ctx.auth.companyId, page.limit, page.after?.[0]);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    return {
      status: 200,
      body: { items: items.map(presentEndpoint), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },

  createWebhookEndpoint: async ({ body }, ctx) => {
    await checkUrl(body.url, ctx.config.webhooksAllowPrivate);
    checkEvents(body.enabledEvents);
    const row = await createEndpoint(
      ctx.db,
      ctx.auth.companyId,
      body,
      ctx.clock.now(),
      auditing(ctx, 'webhook_endpoint.created'),
    );
    return {
      status: 201,
      body: withSecret(row),
      headers: { Location: `${ctx.config.baseUrl}/webhooks/v1/endpoints/${row.id}` },
    };
  },

  getWebhookEndpoint: async ({ params }, ctx) => {
    const row = await findEndpoint(ctx.db, ctx.auth.companyId, params.endpointId);
    if (!row) throw endpointNotFound();
    return { status: 200, body: presentEndpoint(row) };
  },

  updateWebhookEndpoint: async ({ params, body }, ctx) => {
    if (body.url !== undefined) await checkUrl(body.url, ctx.config.webhooksAllowPrivate);
    if (body.enabledEvents !== undefined) checkEvents(body.enabledEvents);
    const audit = auditing(ctx, 'webhook_endpoint.updated');
    const row = await updateEndpoint(ctx.db, ctx.auth.companyId, params.endpointId, body, ctx.clock.now(), audit);
    if (!row) throw endpointNotFound();
    return { status: 200, body: presentEndpoint(row) };
  },

  deleteWebhookEndpoint: async ({ params }, ctx) => {
    const audit = auditing(ctx, 'webhook_endpoint.deleted');
    if (!(await deleteEndpoint(ctx.db, ctx.auth.companyId, params.endpointId, audit))) throw endpointNotFound();
    return { status: 204 };
  },

  rotateWebhookEndpointSecret: async ({ params }, ctx) => {
    const audit = auditing(ctx, 'webhook_endpoint.secret_rotated');
    const row = await rotateSecret(ctx.db, ctx.auth.companyId, params.endpointId, ctx.clock.now(), audit);
    if (!row) throw endpointNotFound();
    return { status: 200, body: withSecret(row) };
  },

  listWebhookDeliveries: async ({ params, query }, ctx) => {
    const { companyId } = ctx.auth;
    if (!(await findEndpoint(ctx.db, companyId, params.endpointId))) throw endpointNotFound();
    const page = paging('listWebhookDeliveries', ctx, query, { endpointId: params.endpointId }, ['string']);
    const rows = await listDeliveries(ctx.db, companyId, params.endpointId, page.limit, page.after?.[0]);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    return {
      status: 200,
      body: { items: items.map(presentDelivery), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },

  retryWebhookDelivery: async ({ params }, ctx) => {
    const { companyId } = ctx.auth;
    const endpoint = await findEndpoint(ctx.db, companyId, params.endpointId);
    if (!endpoint) throw endpointNotFound();
    if (endpoint.status !== 'enabled')
      throw conflict('The webhook endpoint is disabled; enable it before resending', ['status: disabled']);
    if (!(await retryDelivery(ctx.db, companyId, params.endpointId, params.deliveryId, ctx.clock.now())))
      throw notFound('Delivery not found');
    const row = await findDelivery(ctx.db, companyId, params.endpointId, params.deliveryId);
    if (!row) throw notFound('Delivery not found');
    return { status: 202, body: presentDelivery(row) };
  },
});
