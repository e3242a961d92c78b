// createVcn: the usage window, in the company's time zone, at and beyond each edge.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  aerialRequest,
  customRequest,
  expectVcnError,
  fundedCompany,
  hotelRequest,
  issue,
  reauthenticate,
  type VcnCreate,
} from './support/factories/vcn.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server); // America/Sao_Paulo (UTC-3)
});
afterAll(async () => server.close());
beforeEach(async () => {
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await reauthenticate(server, acme);
});

const post = (body: VcnCreate, company = acme) => company.api.POST('/credit-cards/v1/vcns', { body });

describe('createVcn: startDate', () => {
  it('when startDate is the issuance day, then 201', async () => {
    expect((await issue(acme, customRequest({ startDate: '2026-11-20' }))).startDate).toBe('2026-11-20');
  });

  it('when startDate is the day before the issuance day, then 400 invalid-vcn-request', async () => {
    expectVcnError(await post(customRequest({ startDate: '2026-11-19' })), 400, 'invalid-vcn-request');
  });

  it('when startDate is later, then the window opens that day', async () => {
    const vcn = await issue(acme, customRequest({ startDate: '2026-12-01', endDate: '2026-12-31' }));
    expect([vcn.startDate, vcn.endDate]).toEqual(['2026-12-01', '2026-12-31']);
  });
});

describe('createVcn: the issuance day around midnight', () => {
  it("when it is 23:30 in São Paulo (02:30 UTC of the next day), then the issuance day is still São Paulo's", async () => {
    server.clock.set('2026-11-21T02:30:00Z');
    acme = await reauthenticate(server, acme);
    const vcn = await issue(acme, customRequest({ startDate: '2026-11-20' }));
    expect(vcn.startDate).toBe('2026-11-20');
    expect(vcn.endDate).toBe('2027-01-19');
  });

  it('when it is 00:00 in São Paulo (03:00 UTC), then the previous day is in the past', async () => {
    server.clock.set('2026-11-21T03:00:00Z');
    acme = await reauthenticate(server, acme);
    expectVcnError(await post(customRequest({ startDate: '2026-11-20' })), 400, 'invalid-vcn-request');
    expect((await issue(acme, aerialRequest())).startDate).toBe('2026-11-21');
  });

  it("when it is 20:59 in São Paulo but the company is in Tokyo, then the issuance day is Tokyo's next day", async () => {
    server.clock.set('2026-11-20T23:59:00Z'); // 08:59 on 2026-11-21 in Tokyo
    const tokyo = await fundedCompany(server, { timeZone: 'Asia/Tokyo' });
    expectVcnError(await post(customRequest({ startDate: '2026-11-20' }), tokyo), 400, 'invalid-vcn-request');
    expect((await issue(tokyo, aerialRequest())).endDate).toBe('2026-11-22');
  });
});

describe('createVcn: endDate', () => {
  it('when endDate equals startDate, then 400; one day later, then 201', async () => {
    expectVcnError(
      await post(customRequest({ startDate: '2026-12-01', endDate: '2026-12-01' })),
      400,
      'invalid-vcn-request',
    );
    expect((await issue(acme, customRequest({ startDate: '2026-12-01', endDate: '2026-12-02' }))).endDate).toBe(
      '2026-12-02',
    );
  });

  it('when endDate is the issuance day and startDate is omitted, then 400', async () => {
    expectVcnError(await post(customRequest({ endDate: '2026-11-20' })), 400, 'invalid-vcn-request');
  });

  it('when endDate is 365 days after issuance, then 201; 366 days, then 400', async () => {
    expect((await issue(acme, customRequest({ endDate: '2027-11-20' }))).endDate).toBe('2027-11-20');
    const error = expectVcnError(await post(customRequest({ endDate: '2027-11-21' })), 400, 'invalid-vcn-request');
    expect(error.message).toContain('365 days');
  });

  it('when a leap day falls in the window, then 365 days still means 365 days (2028-02-29, not 2028-03-01)', async () => {
    server.clock.set('2027-03-01T15:00:00Z');
    acme = await reauthenticate(server, acme);
    expect((await issue(acme, customRequest({ endDate: '2028-02-29' }))).endDate).toBe('2028-02-29');
    expectVcnError(await post(customRequest({ endDate: '2028-03-01' })), 400, 'invalid-vcn-request');
  });

  it('when startDate is sent, then the 365 days still count from issuance', async () => {
    expectVcnError(
      await post(customRequest({ startDate: '2026-12-20', endDate: '2027-11-21' })),
      400,
      'invalid-vcn-request',
    );
    expect((await issue(acme, customRequest({ startDate: '2026-12-20', endDate: '2027-11-20' }))).endDate).toBe(
      '2027-11-20',
    );
  });

  it('when endDate is not a calendar date, then 400 bad-request-exception', async () => {
    expectVcnError(await post(customRequest({ endDate: '2027-02-30' })), 400, 'bad-request-exception', [
      'body.endDate',
    ]);
  });

  it('when an explicit endDate is sent for a HOTEL card, then it overrides checkOut + 20', async () => {
    expect((await issue(acme, hotelRequest({ endDate: '2026-12-14' }))).endDate).toBe('2026-12-14');
  });

  it('when the HOTEL default (checkOut + 20) would pass 365 days, then 400 invalid-vcn-request', async () => {
    const base = hotelRequest();
    const hotelBooking = { ...base.hotelBooking!, checkIn: '2027-10-20', checkOut: '2027-11-01' };
    expectVcnError(await post(hotelRequest({ hotelBooking })), 400, 'invalid-vcn-request');
  });

  it('when the AERIAL default (issuance + 1) is not after a later startDate, then 400 invalid-vcn-request', async () => {
    expectVcnError(await post(aerialRequest({ startDate: '2026-11-22' })), 400, 'invalid-vcn-request');
  });
});
