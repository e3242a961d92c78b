// updateVcn with the issuer call outside any transaction: one change in flight per card, the
// compare-and-set intact, nothing changed on failure, abandoned changes not blocking forever.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../generated/openapi.js';
import { ABANDONED_AFTER_MS } from '../server/areas/vcn/store/provider.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  customRequest,
  expectVcnError,
  fundedCompany,
  issue,
  issuerWaiting,
  purchase,
  reauthenticate,
} from './support/factories/vcn.js';

type VcnUpdate = components['schemas']['VcnUpdate'];

let server: TestServer;
let acme: TestCompany;
let release: ((outcome?: { fail?: boolean }) => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());
beforeEach(async () => {
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await reauthenticate(server, acme);
});
afterEach(() => release?.());

const patch = (vcnId: string, body: VcnUpdate) =>
  acme.api.PATCH('/credit-cards/v1/vcns/{vcnId}', { params: { path: { vcnId } }, body });
const card = () => issue(acme, customRequest({ limit: { value: 1000, currency: 'BRL' }, endDate: '2027-01-10' }));
const stored = (vcnId: string) =>
  server.db
    .selectFrom('vcns')
    .select(['limit_minor', 'end_date', 'change_id', 'change_limit_minor'])
    .where('id', '=', vcnId)
    .executeTakeFirstOrThrow();
/** Holds the issuer and starts a top-up that waits there (wrapped: an async function would await it). */
async function slowTopUp(vcnId: string, body: VcnUpdate) {
  release = server.issuer.hold();
  const pending = patch(vcnId, body);
  await issuerWaiting(server);
  return { pending };
}

describe('updateVcn while the issuer is slow', () => {
  it('when a top-up is in flight, then another (same expectedValue, or none) gets 409 vcn-limit-conflict, and reads of the card complete', async () => {
    const vcn = await card();
    const { pending: first } = await slowTopUp(vcn.vcnId, { limit: { value: 1500, expectedValue: 1000 } });

    expectVcnError(await patch(vcn.vcnId, { limit: { value: 1200, expectedValue: 1000 } }), 409, 'vcn-limit-conflict');
    const busy = await patch(vcn.vcnId, { endDate: '2027-01-20' });
    expect(expectVcnError(busy, 409, 'vcn-limit-conflict').message).toContain('in progress');
    expect(busy.response.headers.get('Retry-After')).toBe('1');
    const path = { vcnId: vcn.vcnId };
    expect((await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path } })).response.status).toBe(
      200,
    );
    expect(await stored(vcn.vcnId)).toMatchObject({ limit_minor: 100_000, change_limit_minor: 150_000 });

    release!();
    expect((await first).data?.limit.value).toBe(1500);
    expect(await stored(vcn.vcnId)).toEqual({
      limit_minor: 150_000,
      end_date: '2027-01-10',
      change_id: null,
      change_limit_minor: null,
    });
    // A compare-and-set that lost answers the same to a retry: no Retry-After.
    const lost = await patch(vcn.vcnId, { limit: { value: 1600, expectedValue: 1000 } });
    expectVcnError(lost, 409, 'vcn-limit-conflict');
    expect(lost.response.headers.get('Retry-After')).toBeNull();
    expect((await patch(vcn.vcnId, { limit: { value: 1600, expectedValue: 1500 } })).response.status).toBe(200);
  });

  it('when the slow issuer fails the top-up, then 503, the card is unchanged and the same top-up can be retried', async () => {
    const vcn = await card();
    const body = { limit: { value: 2000, expectedValue: 1000 }, endDate: '2027-02-01' };
    const { pending } = await slowTopUp(vcn.vcnId, body);
    release!({ fail: true });
    const failed = await pending;
    expectVcnError(failed, 503, 'vcn-provider-unavailable');
    expect(failed.response.headers.get('Retry-After')).toBe('5');
    expect(await stored(vcn.vcnId)).toEqual({
      limit_minor: 100_000,
      end_date: '2027-01-10',
      change_id: null,
      change_limit_minor: null,
    });
    expect((await patch(vcn.vcnId, body)).data).toMatchObject({ limit: { value: 2000 }, endDate: '2027-02-01' });
  });

  it('when a lower ceiling is in flight, then purchases are held to it until the issuer answers', async () => {
    const vcn = await card();
    const { pending } = await slowTopUp(vcn.vcnId, { limit: { value: 300 } });
    expect(await purchase(server, vcn.vcnId, 500)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'LIMIT_EXCEEDED',
    });
    release!({ fail: true });
    expectVcnError(await pending, 503, 'vcn-provider-unavailable');
    expect((await purchase(server, vcn.vcnId, 500)).status).toBe('APPROVED');
  });
});

describe('updateVcn: abandoned changes', () => {
  const leaveChange = (vcnId: string, ageMs: number) =>
    server.db
      .updateTable('vcns')
      .set({
        change_id: 'crashed',
        change_started_at: new Date(server.clock.now().getTime() - ageMs).toISOString(),
        change_limit_minor: 1,
        change_end_date: '2027-01-10',
      })
      .where('id', '=', vcnId)
      .execute();

  it('when a change is exactly as old as the abandonment delay, then it still blocks: 409', async () => {
    const vcn = await card();
    await leaveChange(vcn.vcnId, ABANDONED_AFTER_MS);
    expectVcnError(await patch(vcn.vcnId, { limit: { value: 1200 } }), 409, 'vcn-limit-conflict');
  });

  it('when a change left by a dead process is older than the delay, then a new top-up replaces it', async () => {
    const vcn = await card();
    await leaveChange(vcn.vcnId, ABANDONED_AFTER_MS + 1);
    expect((await patch(vcn.vcnId, { limit: { value: 1200, expectedValue: 1000 } })).data?.limit.value).toBe(1200);
    expect(await stored(vcn.vcnId)).toEqual({
      limit_minor: 120_000,
      end_date: '2027-01-10',
      change_id: null,
      change_limit_minor: null,
    });
  });
});
