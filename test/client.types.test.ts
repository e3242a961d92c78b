// client.types.*: the client's request types refuse what the server refuses. Each refused call is
// marked `@ts-expect-error`, so `npm run typecheck` fails the day it compiles again; at run time the
// same call still gets the server's own 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinanceClient, type components } from '../client/index.js';
import { expectVcnError, fundedCompany, issue, locator } from './support/factories/vcn.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

type Schemas = components['schemas'];

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());

const clientOf = (company: TestCompany) =>
  createFinanceClient({ baseUrl: server.baseUrl, clientId: company.clientId, clientSecret: company.clientSecret });

const requestor: Schemas['Requestor'] = { name: 'Mariana Souza', email: 'mariana.souza@acme.com.br' };

describe('client.types', () => {
  it('when each card type is created with its own blocks, then the call compiles and the card is issued', async () => {
    const client = clientOf(acme);
    const hotel = await client.POST('/credit-cards/v1/vcns', {
      body: {
        type: 'HOTEL',
        amount: { rate: 100, taxes: 10, currency: 'BRL' },
        hotelBooking: {
          reservationId: `RSV-${locator()}`,
          checkIn: '2026-12-10',
          checkOut: '2026-12-12',
          hotelName: 'Plaza',
          guests: [{ name: 'Ana', surname: 'Ribeiro' }],
        },
        requestor,
      },
    });
    const aerial = await client.POST('/credit-cards/v1/vcns', {
      body: {
        type: 'AERIAL',
        amount: { rate: 300, taxes: 30, currency: 'BRL' },
        flightBooking: {
          recordLocator: locator(),
          passenger: { name: 'Carlos', surname: 'Almeida' },
          legs: [
            { origin: 'GRU', destination: 'SDU', departureDate: '2026-11-21', carrier: 'LA', flightNumber: '3912' },
          ],
        },
        requestor,
      },
    });
    const custom = await client.POST('/credit-cards/v1/vcns', {
      body: { type: 'CUSTOM', limit: { value: 500, currency: 'BRL' }, customUse: { id: `PO-${locator()}` }, requestor },
    });
    expect([hotel, aerial, custom].map((res) => res.response.status)).toEqual([201, 201, 201]);
  });

  it('when a CUSTOM card is created with amount and without limit, then the call does not compile and the server refuses it', async () => {
    const client = clientOf(acme);
    const res = await client.POST('/credit-cards/v1/vcns', {
      body: {
        type: 'CUSTOM',
        // @ts-expect-error a CUSTOM card takes `limit`, never `amount`
        amount: { rate: 100, taxes: 10, currency: 'BRL' },
        customUse: { id: `PO-${locator()}` },
        requestor,
      },
    });
    expectVcnError(res, 400, 'invalid-vcn-request');
  });

  it('when a HOTEL card is created without its booking, then the call does not compile and the server refuses it', async () => {
    const client = clientOf(acme);
    const res = await client.POST('/credit-cards/v1/vcns', {
      // @ts-expect-error a HOTEL card needs `hotelBooking`
      body: { type: 'HOTEL', amount: { rate: 100, taxes: 10, currency: 'BRL' }, requestor },
    });
    expectVcnError(res, 400, 'invalid-vcn-request');
  });

  it('when a top-up sends a limit, an endDate or both, then the call compiles; when it sends neither, it does not and the server refuses it', async () => {
    const client = clientOf(acme);
    const vcn = await issue(acme, {
      type: 'CUSTOM',
      limit: { value: 500, currency: 'BRL' },
      customUse: { id: `PO-${locator()}` },
      requestor,
    });
    const patch = (body: Schemas['VcnUpdate']) =>
      client.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path: { vcnId: vcn.vcnId } }, body });
    expect((await patch({ limit: { value: 600 } })).response.status).toBe(200);
    expect((await patch({ endDate: '2026-12-30' })).response.status).toBe(200);
    expect((await patch({ limit: { value: 700 }, endDate: '2026-12-31' })).response.status).toBe(200);
    // @ts-expect-error a top-up needs `limit` or `endDate`
    expectVcnError(await patch({}), 400, 'bad-request-exception');
  });
});
