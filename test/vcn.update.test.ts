// updateVcn: CUSTOM only, live only, accumulated ceiling with compare-and-set, endDate rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../generated/openapi.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  aerialRequest,
  customRequest,
  expectVcnError,
  fundedCompany,
  hotelRequest,
  issue,
  purchase,
  reauthenticate,
  setStatus,
  simulatedIssuer,
} from './support/factories/vcn.js';

type VcnUpdate = components['schemas']['VcnUpdate'];

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

const patch = (vcnId: string, body: VcnUpdate, company = acme) =>
  company.api.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path: { vcnId } }, body });
const card = async (overrides = {}) =>
  issue(acme, customRequest({ limit: { value: 1000, currency: 'BRL' }, ...overrides }));
const advanceTo = async (at: string) => {
  server.clock.set(at);
  acme = await reauthenticate(server, acme);
};

describe('updateVcn', () => {
  it('when limit.value is sent, then it becomes the accumulated ceiling and the answer has exactly five fields', async () => {
    const vcn = await card();
    const { data, response } = await patch(vcn.vcnId, { limit: { value: 1500 } });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      vcnId: vcn.vcnId,
      status: 'ACTIVE',
      limit: { value: 1500, currency: 'BRL' },
      startDate: '2026-11-20',
      endDate: vcn.endDate,
    });
  });

  it('when expectedValue equals the current ceiling, then 200; when it differs, then 409 vcn-limit-conflict and nothing changes', async () => {
    const vcn = await card();
    expect((await patch(vcn.vcnId, { limit: { value: 1200, expectedValue: 1000 } })).response.status).toBe(200);
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 1400, expectedValue: 1000 } }), 409, 'vcn-limit-conflict');
    expect((await patch(vcn.vcnId, { limit: { value: 1400, expectedValue: 1200 } })).data?.limit.value).toBe(1400);
  });

  it('when 20 top-ups with the same expectedValue arrive together, then exactly one succeeds', async () => {
    const vcn = await card();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        patch(vcn.vcnId, { limit: { value: 1000 + (i + 1) * 10, expectedValue: 1000 } }),
      ),
    );
    const won = replies.filter((r) => r.response.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of replies.filter((r) => r.response.status !== 200))
      expectVcnError(lost, 409, 'vcn-limit-conflict');
    const stored = await server.db
      .selectFrom('vcns')
      .select('limit_minor')
      .where('id', '=', vcn.vcnId)
      .executeTakeFirstOrThrow();
    expect(stored.limit_minor / 100).toBe(won[0]!.data!.limit.value);
  });

  it('when the ceiling would fall below what was spent, then 400 invalid-vcn-request; exactly the spent amount is accepted', async () => {
    const vcn = await card();
    await purchase(server, vcn.vcnId, 600.55);
    await purchase(server, vcn.vcnId, 100);
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 700.54 } }), 400, 'invalid-vcn-request');
    expect((await patch(vcn.vcnId, { limit: { value: 700.55 } })).response.status).toBe(200);
  });

  it.each([0.009, 0, 12.345])('when limit.value is %s, then 400 bad-request-exception', async (value) => {
    const vcn = await card();
    expectVcnError(await patch(vcn.vcnId, { limit: { value } }), 400, 'bad-request-exception', ['body.limit.value']);
  });

  it('when limit.value is 19.99 or 0.07, then it is stored exactly', async () => {
    const vcn = await card();
    expect((await patch(vcn.vcnId, { limit: { value: 19.99 } })).data?.limit.value).toBe(19.99);
    expect((await patch(vcn.vcnId, { limit: { value: 0.07, expectedValue: 19.99 } })).data?.limit.value).toBe(0.07);
  });

  it('when the issuer fails, then 503 vcn-provider-unavailable and the ceiling is unchanged', async () => {
    const vcn = await card();
    simulatedIssuer(server).failNext();
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 2000 } }), 503, 'vcn-provider-unavailable');
    expect((await patch(vcn.vcnId, { limit: { value: 2100, expectedValue: 1000 } })).response.status).toBe(200);
  });
});

describe('updateVcn: which cards', () => {
  it.each([
    ['HOTEL', hotelRequest],
    ['AERIAL', aerialRequest],
  ] as const)('when the card is %s, then 409 vcn-not-updatable', async (_type, request) => {
    const vcn = await issue(acme, request());
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 5000 } }), 409, 'vcn-not-updatable');
  });

  it('when the card is cancelled, then 409 vcn-not-active', async () => {
    const vcn = await card();
    await setStatus(server, vcn.vcnId, 'CANCELLED');
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 2000 } }), 409, 'vcn-not-active');
  });

  it('when the card expired, then 409 vcn-not-active; on its last day it is still updatable', async () => {
    const vcn = await card({ endDate: '2026-11-30' });
    await advanceTo('2026-12-01T02:59:00Z'); // 23:59 on 2026-11-30 in São Paulo
    expect((await patch(vcn.vcnId, { endDate: '2026-12-05' })).response.status).toBe(200);
    await advanceTo('2026-12-06T03:00:00Z');
    expectVcnError(await patch(vcn.vcnId, { endDate: '2026-12-20' }), 409, 'vcn-not-active');
  });

  it('when the card is BLOCKED within its window, then it is live and can be topped up', async () => {
    const vcn = await card();
    await setStatus(server, vcn.vcnId, 'BLOCKED');
    expect((await patch(vcn.vcnId, { limit: { value: 2000 } })).data?.status).toBe('BLOCKED');
  });

  it('when the card belongs to another company, then 404 vcn-not-found', async () => {
    const vcn = await card();
    const globex = await fundedCompany(server);
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 2000 } }, globex), 404, 'vcn-not-found');
  });

  it('when no card has the id, then 404; when the id is not a ULID, then 400 on params.vcnId', async () => {
    expectVcnError(await patch('01JD3R7M5Q2W8E4T6Y1V9K0PZX', { limit: { value: 10 } }), 404, 'vcn-not-found');
    expectVcnError(await patch('not-a-card', { limit: { value: 10 } }), 400, 'bad-request-exception', ['params.vcnId']);
  });
});

describe('updateVcn: endDate and body rules', () => {
  it('when endDate extends or shortens the window, then it is the new endDate and expiration', async () => {
    const vcn = await card();
    expect((await patch(vcn.vcnId, { endDate: '2027-06-30' })).data?.endDate).toBe('2027-06-30');
    expect((await patch(vcn.vcnId, { endDate: '2026-11-21' })).data?.endDate).toBe('2026-11-21');
    const revealed = await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', {
      params: { path: { vcnId: vcn.vcnId } },
    });
    expect(revealed.data?.expirationDate).toBe('11/2026');
  });

  it('when endDate is yesterday, then 400 invalid-vcn-request; today is accepted', async () => {
    const vcn = await card();
    await advanceTo('2026-11-25T15:00:00Z');
    expectVcnError(await patch(vcn.vcnId, { endDate: '2026-11-24' }), 400, 'invalid-vcn-request');
    expect((await patch(vcn.vcnId, { endDate: '2026-11-25' })).data?.endDate).toBe('2026-11-25');
  });

  it('when endDate is 365 days after issuance, then 200; 366 days, then 400 (also once time has passed)', async () => {
    const vcn = await card();
    await advanceTo('2027-01-10T15:00:00Z');
    expectVcnError(await patch(vcn.vcnId, { endDate: '2027-11-21' }), 400, 'invalid-vcn-request');
    expect((await patch(vcn.vcnId, { endDate: '2027-11-20' })).data?.endDate).toBe('2027-11-20');
  });

  it('when endDate is not after startDate, then 400 invalid-vcn-request', async () => {
    const vcn = await card({ startDate: '2026-12-01', endDate: '2026-12-31' });
    expectVcnError(await patch(vcn.vcnId, { endDate: '2026-12-01' }), 400, 'invalid-vcn-request');
  });

  it('when startDate is sent, then 400 bad-request-exception', async () => {
    const vcn = await card();
    expectVcnError(
      await patch(vcn.vcnId, { startDate: '2026-12-01' } as unknown as VcnUpdate),
      400,
      'bad-request-exception',
      ['body.startDate'],
    );
  });

  it('when the body is empty, or limit lacks value, then 400 bad-request-exception', async () => {
    const vcn = await card();
    expectVcnError(await patch(vcn.vcnId, {} as VcnUpdate), 400, 'bad-request-exception');
    expectVcnError(
      await patch(vcn.vcnId, { limit: { expectedValue: 1000 } } as VcnUpdate),
      400,
      'bad-request-exception',
      ['body.limit.value'],
    );
  });

  it('when create and update both break a rule, then both messages start with the same prefix', async () => {
    const vcn = await card();
    const onUpdate = expectVcnError(await patch(vcn.vcnId, { endDate: '2020-01-01' }), 400, 'invalid-vcn-request');
    const onCreate = expectVcnError(
      await acme.api.POST('/credit-cards/v1/vcns', { body: customRequest({ startDate: '2020-01-01' }) }),
      400,
      'invalid-vcn-request',
    );
    const prefix = 'Invalid VCN request: ';
    expect([onUpdate.message.slice(0, prefix.length), onCreate.message.slice(0, prefix.length)]).toEqual([
      prefix,
      prefix,
    ]);
  });
});
