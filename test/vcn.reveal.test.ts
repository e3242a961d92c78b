// revealVcn and redirectVcnCard: card data on demand, a derived CVV, and an audit of every reveal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../server/areas/auth/store.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  customRequest,
  expectVcnError,
  fundedCompany,
  hotelRequest,
  issue,
  reauthenticate,
  setStatus,
} from './support/factories/vcn.js';

/** The reveal audit of a card, read from the store (no operation lists it). */
const reveals = (server: TestServer, companyId: string, vcnId: string) =>
  server.db
    .selectFrom('vcn_reveals')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('vcn_id', '=', vcnId)
    .orderBy('revealed_at')
    .orderBy('id')
    .execute();

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());
beforeEach(async () => {
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await reauthenticate(server, acme);
});

const reveal = (vcnId: string, company = acme) =>
  company.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path: { vcnId } } });

describe('revealVcn', () => {
  it("when the card is the company's, then 200 with exactly pan, cvv and expirationDate as issued, not cacheable", async () => {
    const vcn = await issue(acme, hotelRequest());
    const { data, response } = await reveal(vcn.vcnId);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(data).toEqual(vcn.card);
  });

  it('when revealed twice, then the derived CVV is the same both times', async () => {
    const vcn = await issue(acme, customRequest());
    const [a, b] = [await reveal(vcn.vcnId), await reveal(vcn.vcnId)];
    expect(a.data?.cvv).toBe(b.data?.cvv);
  });

  it('when revealed, then each reveal is recorded with the client and the time', async () => {
    const vcn = await issue(acme, customRequest());
    const second = await createClient(server.db, server.clock, { companyId: acme.companyId, scopes: ['vcn:reveal'] });
    const other = await reauthenticate(server, {
      ...acme,
      clientId: second.clientId,
      clientSecret: second.clientSecret,
    });
    await reveal(vcn.vcnId);
    server.clock.set('2026-11-20T15:05:00Z');
    const { response } = await reveal(vcn.vcnId, other);
    expect(response.status).toBe(200);
    const audit = await reveals(server, acme.companyId, vcn.vcnId);
    expect(audit.map((r) => [r.client_id, r.revealed_at])).toEqual([
      [acme.clientId, '2026-11-20T15:00:00.000Z'],
      [second.clientId, '2026-11-20T15:05:00.000Z'],
    ]);
    expect(audit[1]!.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('when the card is cancelled, then it can still be revealed', async () => {
    const vcn = await issue(acme, customRequest());
    await setStatus(server, vcn.vcnId, 'CANCELLED');
    expect((await reveal(vcn.vcnId)).data?.pan).toBe(vcn.card.pan);
  });

  it('when the card belongs to another company, then 404 vcn-not-found and nothing is recorded', async () => {
    const vcn = await issue(acme, customRequest());
    const globex = await fundedCompany(server);
    expectVcnError(await reveal(vcn.vcnId, globex), 404, 'vcn-not-found');
    expect(await reveals(server, globex.companyId, vcn.vcnId)).toEqual([]);
    expect(await reveals(server, acme.companyId, vcn.vcnId)).toEqual([]);
  });

  it('when no card has the id, then 404 vcn-not-found; a malformed id, then 400 on params.vcnId', async () => {
    expectVcnError(await reveal('01JD3R7M5Q2W8E4T6Y1V9K0PZX'), 404, 'vcn-not-found');
    expectVcnError(await reveal('01JD3R7M5Q2W8E4T6Y1V9K0PZ'), 400, 'bad-request-exception', ['params.vcnId']);
  });
});

describe('redirectVcnCard', () => {
  it('when the former /card path is called, then 308 to /reveal, which answers the card when followed', async () => {
    const vcn = await issue(acme, customRequest());
    const headers = { Authorization: `Bearer ${acme.token}` };
    const res = await fetch(`${server.baseUrl}/credit-cards/v1/vcns/${vcn.vcnId}/card`, {
      headers,
      redirect: 'manual',
    });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe(`/credit-cards/v1/vcns/${vcn.vcnId}/reveal`);
    const followed = await fetch(`${server.baseUrl}/credit-cards/v1/vcns/${vcn.vcnId}/card`, { headers });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual(vcn.card);
  });

  it('when the card belongs to another company, then 404 vcn-not-found', async () => {
    const vcn = await issue(acme, customRequest());
    const globex = await fundedCompany(server);
    const reply = await globex.api.GET('/credit-cards/v1/vcns/{vcnId}/card', {
      params: { path: { vcnId: vcn.vcnId } },
    });
    expectVcnError(reply, 404, 'vcn-not-found');
  });
});
