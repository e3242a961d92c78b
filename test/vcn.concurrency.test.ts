// createVcn and updateVcn call the issuer outside any transaction: a slow issuer holds neither
// the database nor a second card for the key; abandoned reservations do not hold keys forever.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS } from '../server/areas/vcn/store/provider.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  customRequest,
  expectVcnError,
  fundedCompany,
  hotelRequest,
  issue,
  issuerWaiting,
  leftReservation,
  reauthenticate,
  setStatus,
  type VcnCreate,
} from './support/factories/vcn.js';

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

const post = (body: VcnCreate) => acme.api.POST('/credit-cards/v1/vcns', { body });
const reveal = (vcnId: string) => acme.api.GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path: { vcnId } } });
const rowsFor = (key: string) =>
  server.db
    .selectFrom('vcns')
    .select(['id', 'status', 'holds_key'])
    .where('company_id', '=', acme.companyId)
    .where('idempotency_key', '=', key)
    .execute();
/** Holds the issuer, starts the request, and resolves once the request waits at the issuer. */
async function slowIssuer<T>(request: () => Promise<T>): Promise<{ pending: Promise<T>; settled: () => boolean }> {
  release = server.issuer.hold();
  let done = false;
  const pending = request().finally(() => (done = true));
  await issuerWaiting(server);
  return { pending, settled: () => done };
}

describe('createVcn while the issuer is slow', () => {
  it('when the issuer has not answered yet, then other requests (a list, a reveal, transactions) complete meanwhile', async () => {
    const other = await issue(acme, customRequest());
    const { pending, settled } = await slowIssuer(() => post(customRequest()));

    expect((await acme.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
    expect((await reveal(other.vcnId)).data?.pan).toBe(other.card.pan);
    const path = { vcnId: other.vcnId };
    expect(
      (await acme.api.GET('/credit-cards/v1/vcns/{vcnId}/transactions', { params: { path } })).response.status,
    ).toBe(200);
    expect(settled()).toBe(false);

    release!();
    expect((await pending).response.status).toBe(201);
  });

  it('when the same key arrives while its card is being issued, then 409 vcn-already-exists, and afterwards exactly one card exists', async () => {
    const body = hotelRequest();
    const key = body.hotelBooking!.reservationId;
    const { pending } = await slowIssuer(() => post(body));

    const busy = await post(body);
    const second = expectVcnError(busy, 409, 'vcn-already-exists');
    expect(second.message).toBe(`A virtual card for reservationId ${key} is being issued; retry shortly`);
    expect(busy.response.headers.get('Retry-After')).toBe('1');
    const [reservation] = await rowsFor(key);
    expect(reservation).toMatchObject({ status: 'PENDING', holds_key: 1 });
    expectVcnError(await reveal(reservation!.id), 404, 'vcn-not-found'); // not a card yet

    release!();
    const first = await pending;
    expect(first.response.status).toBe(201);
    expect(await rowsFor(key)).toEqual([{ id: first.data!.vcnId, status: 'ACTIVE', holds_key: 1 }]);
    // The live card holds the key: a retry answers the same, so no Retry-After.
    const held = await post(body);
    expectVcnError(held, 409, 'vcn-already-exists');
    expect(held.response.headers.get('Retry-After')).toBeNull();
  });

  it('when a keyed request got 409 "being issued, retry shortly", then its retry with the same Idempotency-Key is answered afresh, not that 409 again', async () => {
    const body = hotelRequest();
    const { pending } = await slowIssuer(() => post(body));
    const keyed = () =>
      acme.api.POST('/credit-cards/v1/vcns', { body, headers: { 'Idempotency-Key': 'retry-after-busy' } });
    const busy = await keyed();
    expectVcnError(busy, 409, 'vcn-already-exists');
    expect(busy.response.headers.get('Retry-After')).toBe('1');
    release!();
    const first = await pending;
    // An answer that said to retry later was not the request's answer: the retry runs, and meets the live card.
    const retried = await keyed();
    const held = expectVcnError(retried, 409, 'vcn-already-exists');
    expect(retried.response.headers.get('Idempotent-Replayed')).toBeNull();
    expect(retried.response.headers.get('Retry-After')).toBeNull();
    expect(held.message).toContain(first.data!.vcnId);
  });

  it('when the slow issuer finally fails, then 503, no row is left and the key is free again', async () => {
    const body = customRequest();
    const { pending } = await slowIssuer(() => post(body));
    release!({ fail: true });
    expectVcnError(await pending, 503, 'vcn-provider-unavailable');
    expect(await rowsFor(body.customUse!.id)).toEqual([]);
    await issue(acme, body);
  });

  it('when the slow issuance replaces a cancelled card and fails, then the cancelled card holds the key again', async () => {
    const body = customRequest();
    const old = await issue(acme, body);
    await setStatus(server, old.vcnId, 'CANCELLED');
    const { pending } = await slowIssuer(() => post(body));
    release!({ fail: true });
    expectVcnError(await pending, 503, 'vcn-provider-unavailable');
    expect(await rowsFor(body.customUse!.id)).toEqual([{ id: old.vcnId, status: 'CANCELLED', holds_key: 1 }]);
  });
});

describe('createVcn: abandoned reservations', () => {
  it('when a reservation is exactly as old as the abandonment delay, then it still holds the key: 409', async () => {
    const body = customRequest();
    const at = new Date(server.clock.now().getTime() - ABANDONED_AFTER_MS);
    await leftReservation(server.db, { companyId: acme.companyId, type: 'CUSTOM', key: body.customUse!.id, at });
    expectVcnError(await post(body), 409, 'vcn-already-exists');
  });

  it('when a reservation is older than the abandonment delay, then it is removed and the key is issued', async () => {
    const body = customRequest();
    const at = new Date(server.clock.now().getTime() - ABANDONED_AFTER_MS - 1);
    const dead = await leftReservation(server.db, {
      companyId: acme.companyId,
      type: 'CUSTOM',
      key: body.customUse!.id,
      at,
    });
    const card = await issue(acme, body);
    expect(await rowsFor(body.customUse!.id)).toEqual([{ id: card.vcnId, status: 'ACTIVE', holds_key: 1 }]);
    expect(card.vcnId).not.toBe(dead);
  });

  it('when an abandoned reservation had taken over a cancelled card, then a new issue still replaces that card', async () => {
    const body = customRequest();
    const old = await issue(acme, body);
    await setStatus(server, old.vcnId, 'CANCELLED');
    await server.db.updateTable('vcns').set({ holds_key: 0 }).where('id', '=', old.vcnId).execute();
    const at = new Date(server.clock.now().getTime() - ABANDONED_AFTER_MS - 1);
    await leftReservation(server.db, {
      companyId: acme.companyId,
      type: 'CUSTOM',
      key: body.customUse!.id,
      at,
      replacesId: old.vcnId,
    });
    const card = await issue(acme, body);
    const rows = await rowsFor(body.customUse!.id);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: old.vcnId, status: 'CANCELLED', holds_key: 0 },
        { id: card.vcnId, status: 'ACTIVE', holds_key: 1 },
      ]),
    );
  });

  it('when a request outlives the abandonment delay, then a newer request takes the key, and the late one gets 503', async () => {
    const body = customRequest();
    const { pending: late } = await slowIssuer(() => post(body));
    server.clock.advance(ABANDONED_AFTER_MS + 1);
    const newer = post(body);
    await issuerWaiting(server, 2);
    release!();
    expect((await newer).response.status).toBe(201);
    expectVcnError(await late, 503, 'vcn-provider-unavailable');
    expect(await rowsFor(body.customUse!.id)).toEqual([
      { id: (await newer).data!.vcnId, status: 'ACTIVE', holds_key: 1 },
    ]);
  });
});
