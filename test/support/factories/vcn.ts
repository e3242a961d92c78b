// Virtual-card requests with overridable blocks, funded companies, sandbox purchases, and the
// assertion every VCN error test shares.
import { ulid } from 'ulid';
import { expect } from 'vitest';
import type { components } from '../../../generated/openapi.js';
import type { Db } from '../../../server/db/database.js';
import type { SimulatedIssuer } from '../../../server/sandbox/issuer.js';
import { addFundingCard, findActiveFundingCard } from '../../../server/areas/vcn/store/funding.js';
import { authorizePurchase, setCardStatus } from '../../../server/sandbox/cards.js';
import type { StoredVcnStatus, VcnTransactionRow, VcnType } from '../../../server/areas/vcn/tables.js';
import { toMinor } from '../../../server/lib/money.js';
import type { TestCompany, TestServer } from '../server.js';

type Schemas = components['schemas'];
export type VcnCreate = Schemas['VcnCreate'];
/**
 * Fields to put on a factory's request, of any type (the factory still answers its own variant's type): tests of refused requests add forbidden
 * blocks or drop required ones, which the contract's types do not let a caller write.
 */
type VcnOverrides = Partial<
  Omit<Schemas['VcnCreateHotel'], 'type'> &
    Omit<Schemas['VcnCreateAerial'], 'type'> &
    Omit<Schemas['VcnCreateCustom'], 'type'>
> & { type?: VcnCreate['type'] };
type Vcn = Schemas['Vcn'];

let sequence = 0;
const next = () => String(++sequence).padStart(6, '0');
/** A fresh 6-character record locator. */
export const locator = () => `PN${next().slice(-4)}`;

const requestor: Schemas['Requestor'] = {
  name: 'Mariana Souza',
  email: 'mariana.souza@acme.com.br',
  phone: '+5511987654321',
};

export function hotelRequest(overrides: VcnOverrides = {}): Schemas['VcnCreateHotel'] {
  const base: Schemas['VcnCreateHotel'] = {
    type: 'HOTEL',
    amount: { rate: 1250, taxes: 187.5, fees: 35.9, currency: 'BRL' },
    hotelBooking: {
      reservationId: `RSV-${next()}`,
      checkIn: '2026-12-10',
      checkOut: '2026-12-13',
      hotelName: 'Hotel Paulista Plaza',
      guests: [{ name: 'Ana', surname: 'Ribeiro' }],
    },
    requestor,
  };
  return { ...base, ...overrides } as typeof base;
}

export function aerialRequest(overrides: VcnOverrides = {}): Schemas['VcnCreateAerial'] {
  const base: Schemas['VcnCreateAerial'] = {
    type: 'AERIAL',
    amount: { rate: 899.9, taxes: 120.35, currency: 'BRL' },
    flightBooking: {
      recordLocator: locator(),
      passenger: { name: 'Carlos', surname: 'Almeida' },
      legs: [{ origin: 'GRU', destination: 'SDU', departureDate: '2026-11-21', carrier: 'LA', flightNumber: '3912' }],
    },
    requestor,
  };
  return { ...base, ...overrides } as typeof base;
}

export function customRequest(overrides: VcnOverrides = {}): Schemas['VcnCreateCustom'] {
  const base: Schemas['VcnCreateCustom'] = {
    type: 'CUSTOM',
    limit: { value: 5000, currency: 'BRL' },
    customUse: { id: `PO-${next()}`, description: 'Software licences' },
    requestor,
  };
  return { ...base, ...overrides } as typeof base;
}

export const requestOf: Record<VcnType, (overrides?: VcnOverrides) => VcnCreate> = {
  HOTEL: hotelRequest,
  AERIAL: aerialRequest,
  CUSTOM: customRequest,
};

/** Funds a company for every card type in the given currencies (BRL and USD by default). */
export async function fund(db: Db, companyId: string, currencies: readonly string[] = ['BRL', 'USD']): Promise<void> {
  for (const cardType of ['HOTEL', 'AERIAL', 'CUSTOM'] as const) {
    for (const currency of currencies)
      await addFundingCard(db, { companyId, cardType, currency, now: new Date('2026-01-01T00:00:00Z') });
  }
}

/** A new company whose funding cards are set up. */
export async function fundedCompany(
  server: TestServer,
  options?: Parameters<TestServer['newCompany']>[0],
): Promise<TestCompany> {
  const company = await server.newCompany(options);
  await fund(server.db, company.companyId);
  return company;
}

/** The same company with a fresh token, for tests that move the clock beyond the token's life. */
export async function reauthenticate(server: TestServer, company: TestCompany): Promise<TestCompany> {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: company.clientId,
      client_secret: company.clientSecret,
    }),
  });
  expect(res.status).toBe(200);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { ...company, token, api: server.apiWithToken(token) };
}

/** Issues a card through the API and returns it (fails the test unless 201). */
export async function issue(company: TestCompany, body: VcnCreate): Promise<Vcn> {
  const { data, error, response } = await company.api.POST('/credit-cards/v1/vcns', { body });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data!;
}

/** The simulated issuer the test server's app uses. */
export const simulatedIssuer = (server: TestServer): SimulatedIssuer => server.issuer;

/** A sandbox purchase at the server's current time. */
export function purchase(
  server: TestServer,
  vcnId: string,
  amount: number,
  merchant = 'HOTEL PAULISTA PLAZA',
  mcc = '7011',
): Promise<VcnTransactionRow> {
  return authorizePurchase(server.db, {
    vcnId,
    amountMinor: toMinor(amount),
    merchantName: merchant,
    merchantCategory: mcc,
    wall: server.clock.now(),
  }).then((result) => result.transaction);
}

/** Resolves once `count` issuer calls are waiting at the simulated issuer's hold. */
export async function issuerWaiting(server: TestServer, count = 1): Promise<void> {
  for (let i = 0; i < 500 && server.issuer.waiting < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(server.issuer.waiting).toBe(count);
}

/** A key reservation (PENDING) as a process that died between reserving and confirming leaves it. */
export async function leftReservation(
  db: Db,
  {
    companyId,
    type,
    key,
    at,
    replacesId = null,
  }: { companyId: string; type: VcnType; key: string; at: Date; replacesId?: string | null },
): Promise<string> {
  const funding = await findActiveFundingCard(db, companyId, type, 'BRL');
  const id = ulid(at.getTime());
  await db
    .insertInto('vcns')
    .values({
      id,
      company_id: companyId,
      client_id: 'crashed',
      type,
      status: 'PENDING',
      idempotency_key: key,
      holds_key: 1,
      currency: 'BRL',
      limit_minor: 10_000,
      rate_minor: null,
      taxes_minor: null,
      fees_minor: null,
      issued_on: at.toISOString().slice(0, 10),
      start_date: at.toISOString().slice(0, 10),
      end_date: '2027-01-31',
      max_purchase_quantity: 1,
      booking: '{}',
      custom_fields: null,
      requestor: '{}',
      funding_card_id: funding!.id,
      provider_ref: null,
      pan_ciphertext: null,
      pan_last4: null,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
      change_id: null,
      change_started_at: null,
      change_limit_minor: null,
      change_end_date: null,
      replaces_id: replacesId,
    })
    .execute();
  return id;
}

export const setStatus = (server: TestServer, vcnId: string, status: StoredVcnStatus) =>
  setCardStatus(server.db, { vcnId }, status, server.clock.now()).then((result) => result.card);

interface ErrorReply {
  error?: unknown;
  response: Response;
}

/** Asserts a VCN error body: status, code, the request id header, and (optionally) the fields of errors[]. */
export function expectVcnError(
  reply: ErrorReply,
  status: number,
  code: string,
  fields?: string[],
): Schemas['VcnError'] {
  const body = reply.error as Schemas['VcnError'];
  expect(reply.response.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  expect(body.requestId).toBe(reply.response.headers.get('x-request-id'));
  if (code === 'invalid-vcn-request') expect(body.message).toMatch(/^Invalid VCN request: /);
  if (fields) expect(body.errors?.map((e) => e.field)).toEqual(expect.arrayContaining(fields));
  return body;
}
