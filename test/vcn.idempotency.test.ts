// createVcn: one live card per booking key, replacement once expired or cancelled, concurrency,
// and an issuer failure that leaves nothing behind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callIssuer } from '../server/areas/vcn/store/provider.js';
import type { VcnType } from '../server/areas/vcn/tables.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  customRequest,
  expectVcnError,
  fundedCompany,
  hotelRequest,
  issue,
  reauthenticate,
  requestOf,
  setStatus,
  simulatedIssuer,
  type VcnCreate,
} from './support/factories/vcn.js';

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
  simulatedIssuer(server).setAvailable(true);
});

const post = (body: VcnCreate, company = acme) => company.api.POST('/credit-cards/v1/vcns', { body });
const TYPES: VcnType[] = ['HOTEL', 'AERIAL', 'CUSTOM'];
const count = async (companyId: string) =>
  Number(
    (
      await server.db
        .selectFrom('vcns')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(TYPES)('createVcn idempotency: %s', (type) => {
  const request = requestOf[type];

  it('when a live card holds the key, then 409 vcn-already-exists naming it, and nothing is issued', async () => {
    const body = request();
    const first = await issue(acme, body);
    const before = await count(acme.companyId);
    const error = expectVcnError(await post(body), 409, 'vcn-already-exists');
    expect(error.message).toContain(first.vcnId);
    expect(await count(acme.companyId)).toBe(before);
  });

  it('when the holder is BLOCKED within its window, then it is still live: 409', async () => {
    const body = request();
    const first = await issue(acme, body);
    await setStatus(server, first.vcnId, 'BLOCKED');
    expectVcnError(await post(body), 409, 'vcn-already-exists');
  });

  it('when the holder is cancelled, then a new issue replaces it and then holds the key', async () => {
    const body = request();
    const first = await issue(acme, body);
    await setStatus(server, first.vcnId, 'CANCELLED');
    const second = await issue(acme, body);
    expect(second.vcnId).not.toBe(first.vcnId);
    expectVcnError(await post(body), 409, 'vcn-already-exists');
  });

  it('when the holder expired (today past endDate), then a new issue replaces it', async () => {
    const body = request({ endDate: '2026-11-25' });
    const first = await issue(acme, body);
    server.clock.set('2026-11-25T23:00:00Z'); // 20:00 on endDate in São Paulo: still live
    acme = await reauthenticate(server, acme);
    expectVcnError(await post({ ...body, endDate: '2026-11-30' }), 409, 'vcn-already-exists');
    server.clock.set('2026-11-26T03:00:00Z'); // 00:00 the next day: expired
    acme = await reauthenticate(server, acme);
    const second = await issue(acme, { ...body, endDate: '2026-11-30' });
    expect(second.vcnId).not.toBe(first.vcnId);
  });

  it('when another company uses the same key, then both get a card', async () => {
    const body = request();
    const globex = await fundedCompany(server);
    await issue(acme, body);
    await issue(globex, body);
  });

  it('when 10 requests with one key arrive together, then exactly one card is issued', async () => {
    const body = request();
    const replies = await Promise.all(Array.from({ length: 10 }, () => post(body)));
    const statuses = replies.map((r) => r.response.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const live = await server.db
      .selectFrom('vcns')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .where('holds_key', '=', 1)
      .where('type', '=', type)
      .execute();
    expect(live.map((r) => r.id)).toContain(replies.find((r) => r.response.status === 201)!.data!.vcnId);
  });

  it('when the issuer fails, then 503 vcn-provider-unavailable, nothing is stored, and a retry issues the card', async () => {
    const body = request();
    const before = await count(acme.companyId);
    simulatedIssuer(server).failNext();
    expectVcnError(await post(body), 503, 'vcn-provider-unavailable');
    expect(await count(acme.companyId)).toBe(before);
    await issue(acme, body);
  });
});

describe('createVcn: keys per type', () => {
  it('when a CUSTOM id equals a HOTEL reservationId, then they do not collide', async () => {
    const hotel = hotelRequest();
    await issue(acme, hotel);
    await issue(acme, customRequest({ customUse: { id: hotel.hotelBooking.reservationId } }));
  });

  it('when the issuer is down, then every issue is 503 until it is back', async () => {
    const issuer = simulatedIssuer(server);
    issuer.setAvailable(false);
    const body = requestOf.CUSTOM();
    expectVcnError(await post(body), 503, 'vcn-provider-unavailable');
    expectVcnError(await post(body), 503, 'vcn-provider-unavailable');
    issuer.setAvailable(true);
    await issue(acme, body);
  });

  it('when the issuer fails while an expired holder exists, then the old card keeps the key until a retry succeeds', async () => {
    const body = requestOf.AERIAL();
    const first = await issue(acme, body);
    await setStatus(server, first.vcnId, 'CANCELLED');
    simulatedIssuer(server).failNext();
    expectVcnError(await post(body), 503, 'vcn-provider-unavailable');
    const holder = await server.db
      .selectFrom('vcns')
      .select(['id', 'holds_key'])
      .where('id', '=', first.vcnId)
      .executeTakeFirstOrThrow();
    expect(holder.holds_key).toBe(1);
    await issue(acme, body);
  });
});

describe('the issuer call', () => {
  it('when the issuer does not answer in time, then it is 503 vcn-provider-unavailable', async () => {
    await expect(callIssuer(() => new Promise(() => {}), 20)).rejects.toMatchObject({
      status: 503,
      code: 'vcn-provider-unavailable',
    });
  });
});
