// The demo company's resources beyond its seeded statements and directory — a webhook endpoint with
// deliveries (disabled: its address is an example), two unused categories, a virtual card with a purchase, a pending invite, an uploaded
// attachment — made through the API itself, by an app on a loopback port for the moment: they are
// what an integrator's own calls make, events included, and the docs' samples for those operations
// run against them (server/sandbox/docs-demo.ts).
import { approveDemoApp } from '../areas/apps/public.js';
import type { AddressInfo } from 'node:net';
import { createApp } from '../app.js';
import type { Config } from '../config.js';
import { contract } from '../contract/index.js';
import type { Db } from '../db/database.js';
import { createLogger } from '../http/pipeline/logger.js';
import { createHttpServer, listen } from '../http/server.js';
import { systemClock } from '../lib/clock.js';
import { createSimulatedIssuer } from './issuer.js';
import { unavailableIssuer } from '../kit/card-issuer.js';

/** The smallest file a PDF attachment accepts: its signature and an empty document. */
const DEMO_PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Calls the app at `baseUrl` as the client; a refusal stops the fixtures with the API's own words. */
function caller(baseUrl: string, token: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo data: ${method} ${path} answered ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
}

async function tokenFor(baseUrl: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  if (!res.ok) throw new Error(`demo data: the token request answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The calls, in order: the endpoint first, so the card's events have somewhere to be delivered. */
async function makeFixtures(call: Call, baseUrl: string, config: Config): Promise<void> {
  const endpoint = await call('POST', '/webhooks/v1/endpoints', {
    url: 'https://erp.demo-comercio.com.br/hooks/finance',
    enabledEvents: ['*'],
    description: 'Demo ERP (an example address: PATCH it with yours and status enabled)',
  });

  // Two categories of the company's own with nothing linked yet (the batch delete's sample removes them).
  await call('POST', '/categories/v1/categories', { name: '3.5.01 Assinaturas de revistas' });
  await call('POST', '/categories/v1/categories', { name: '3.5.02 Material promocional' });

  const roles = (await call('GET', '/users/v1/roles')).items as Array<{ id: string; profile: string }>;
  const employee = roles.find((role) => role.profile === 'EMPLOYEE') ?? roles[0]!;
  await call('POST', '/users/v1/invites', { email: 'beatriz.lima@demo-comercio.com.br', roleId: employee.id });
  // A second API client, made through the API (the samples of /clients read, rotate and delete it).
  await call('POST', '/clients/v1/clients', { name: 'Demo ERP (read only)', scopes: ['statements:read'] });

  const banking = (await call('GET', '/statements/v1/banking?status=2&limit=1')).transactions as Array<{ id: number }>;
  if (banking[0]) {
    const declared = await call('POST', '/attachments/v1', {
      statement: 'banking',
      transactionId: String(banking[0].id),
      name: 'nota-fiscal-demo.pdf',
      type: 'application/pdf',
    });
    const upload = new URL(String(declared.uploadUrl));
    const res = await fetch(`${baseUrl}${upload.pathname}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      body: DEMO_PDF,
    });
    if (!res.ok) throw new Error(`demo data: the attachment upload answered ${res.status}: ${await res.text()}`);
  }

  // A pending card purchase and a pending bank movement, as the provider would report them: the
  // docs' removal samples drop one each. The seeded statements hold pending ones only where the last
  // three days drew them, which depends on the date and the hour the sandbox starts.
  if (config.sandboxHelpers) {
    await call('POST', '/sandbox/v1/credit-card-transactions', { amount: 57.8, mccCode: 5814, status: 3 });
    await call('POST', '/sandbox/v1/banking-transactions', { brlAmount: 129.9, status: 3 });
  }

  // A card only where the simulated issuer is the server's own (not in production: `seed --demo` there).
  if (config.vcnEnabled && config.cardIssuer === 'simulated') await demoCard(call, config);

  // The address is only an example: the endpoint keeps the deliveries the calls above made (the docs'
  // samples read and resend one) but is left disabled, so nothing is sent to an address the company
  // never gave, until someone points it at theirs and enables it.
  await call('PATCH', `/webhooks/v1/endpoints/${String(endpoint.id)}`, { status: 'disabled' });
}

/** A card with one purchase. */
async function demoCard(call: Call, config: Config): Promise<void> {
  const card = await call('POST', '/credit-cards/v1/vcns', {
    type: 'CUSTOM',
    limit: { value: 5000, currency: 'BRL' },
    customUse: { id: 'DEMO-PO-0001', description: 'Team lunches and office supplies' },
    requestor: { name: 'Mariana Souza', email: 'mariana.souza@demo-comercio.com.br' },
  });
  if (config.sandboxHelpers)
    await call('POST', `/sandbox/v1/vcns/${String(card.vcnId)}/authorizations`, {
      amount: { value: 86.4, currency: 'BRL' },
      merchant: { name: 'PADARIA BELLA PAULISTA', mcc: '5814' },
    });
}

/**
 * Adds the fixtures to the company of `client`, through an app serving `db` on a loopback port
 * only while they are made, with the card issuer the server would have (CARD_ISSUER).
 */
export async function addDemoFixtures(
  db: Db,
  config: Config,
  client: { clientId: string; clientSecret: string },
): Promise<void> {
  const app = createApp({
    db,
    index: contract({ sandbox: config.sandboxHelpers, cards: config.vcnEnabled }),
    clock: systemClock,
    config,
    logger: createLogger('silent'),
    issuer: config.cardIssuer === 'simulated' ? createSimulatedIssuer() : unavailableIssuer(),
  });
  const server = await listen(createHttpServer(app), 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await makeFixtures(caller(baseUrl, await tokenFor(baseUrl, client)), baseUrl, config);
    const company = await db
      .selectFrom('api_clients')
      .select('company_id')
      .where('id', '=', client.clientId)
      .executeTakeFirst();
    if (company) await approveDemoApp(db, systemClock, company.company_id);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
