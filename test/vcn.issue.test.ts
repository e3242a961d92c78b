// createVcn: blocks per type, amounts, windows and defaults, funding, the response shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { luhnCheckDigit } from '../server/areas/vcn/crypto.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  aerialRequest,
  customRequest,
  expectVcnError,
  fundedCompany,
  hotelRequest,
  issue,
  type VcnCreate,
} from './support/factories/vcn.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());
// 12:00 in São Paulo: the issuance day is 2026-11-20.
beforeEach(() => server.clock.set('2026-11-20T15:00:00Z'));

const post = (body: VcnCreate, company = acme) => company.api.POST('/credit-cards/v1/vcns', { body });
const loose = (body: Record<string, unknown>) => body as unknown as VcnCreate;

describe('createVcn', () => {
  it('when a HOTEL card is issued, then 201 with Location, no-store and exactly the seed fields', async () => {
    const body = hotelRequest();
    const { data, response } = await post(body);
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${server.baseUrl}/credit-cards/v1/vcns/${data!.vcnId}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(data!).sort()).toEqual([
      'amount',
      'card',
      'endDate',
      'hotelBooking',
      'limit',
      'maxPurchaseQuantity',
      'startDate',
      'status',
      'type',
      'vcnId',
    ]);
    expect(data).toMatchObject({
      type: 'HOTEL',
      status: 'ACTIVE',
      hotelBooking: body.hotelBooking,
      startDate: '2026-11-20',
      endDate: '2027-01-02', // checkOut 2026-12-13 + 20 days
      amount: { rate: 1250, taxes: 187.5, fees: 35.9, currency: 'BRL' },
      limit: { value: 1473.4, currency: 'BRL' },
      maxPurchaseQuantity: 3,
    });
    expect(data).not.toHaveProperty('partner');
    expect(data).not.toHaveProperty('vcnLast4');
  });

  it('when a card is issued, then its card block is a Luhn-valid test PAN, a 3-digit CVV and the endDate month', async () => {
    const { card, endDate } = await issue(acme, customRequest({ endDate: '2027-03-31' }));
    expect(endDate).toBe('2027-03-31');
    expect(card.pan).toMatch(/^411111[0-9]{10}$/);
    expect(card.pan).toMatch(/^[0-9]{16}$/);
    expect(luhnCheckDigit(card.pan.slice(0, -1))).toBe(Number(card.pan.slice(-1)));
    expect(card.cvv).toMatch(/^[0-9]{3}$/);
    expect(card.expirationDate).toBe('03/2027');
  });

  it('when fees are omitted, then the response carries fees 0 and the ceiling is rate + taxes', async () => {
    const vcn = await issue(acme, aerialRequest({ amount: { rate: 899.9, taxes: 120.35, currency: 'BRL' } }));
    expect(vcn.amount).toEqual({ rate: 899.9, taxes: 120.35, fees: 0, currency: 'BRL' });
    expect(vcn.limit).toEqual({ value: 1020.25, currency: 'BRL' });
  });

  it('when a CUSTOM card is issued, then it echoes customUse, has no amount and uses the limit as ceiling', async () => {
    const body = customRequest();
    const vcn = await issue(acme, body);
    expect(vcn.customUse).toEqual(body.customUse);
    expect(vcn).not.toHaveProperty('amount');
    expect(vcn).not.toHaveProperty('hotelBooking');
    expect(vcn.limit).toEqual({ value: 5000, currency: 'BRL' });
  });

  it('when allowExtraCharges is true, then the margin is added to the ceiling', async () => {
    const base = hotelRequest();
    const vcn = await issue(
      acme,
      hotelRequest({ hotelBooking: { ...base.hotelBooking!, allowExtraCharges: true, extraChargesMargin: 300 } }),
    );
    expect(vcn.limit.value).toBe(1773.4);
  });

  it('when extraChargesMargin is sent without allowExtraCharges, then 400 invalid-vcn-request', async () => {
    const base = hotelRequest();
    expectVcnError(
      await post(hotelRequest({ hotelBooking: { ...base.hotelBooking!, extraChargesMargin: 300 } })),
      400,
      'invalid-vcn-request',
    );
  });

  it('when a positive extraChargesMargin is sent with allowExtraCharges false, then 400 invalid-vcn-request', async () => {
    const base = hotelRequest();
    const body = hotelRequest({
      hotelBooking: { ...base.hotelBooking!, allowExtraCharges: false, extraChargesMargin: 0.01 },
    });
    expectVcnError(await post(body), 400, 'invalid-vcn-request');
  });

  it.each([
    ['allowExtraCharges false and margin 0', { allowExtraCharges: false, extraChargesMargin: 0 }],
    ['no allowExtraCharges and margin 0', { extraChargesMargin: 0 }],
    ['allowExtraCharges false and no margin', { allowExtraCharges: false }],
  ])('when a HOTEL card has %s, then 201 and the ceiling is the price', async (_name, extra) => {
    const base = hotelRequest();
    const { data, response } = await post(hotelRequest({ hotelBooking: { ...base.hotelBooking!, ...extra } }));
    expect(response.status).toBe(201);
    expect(data!.limit.value).toBe(1473.4);
  });
});

describe('createVcn: defaults by type', () => {
  it.each([
    ['HOTEL', hotelRequest, '2027-01-02', 3],
    ['AERIAL', aerialRequest, '2026-11-21', 2],
    ['CUSTOM', customRequest, '2027-01-19', 10000],
  ] as const)(
    'when a %s card omits endDate and maxPurchaseQuantity, then endDate %s and %i purchases',
    async (_type, request, endDate, max) => {
      const vcn = await issue(acme, request());
      expect(vcn.startDate).toBe('2026-11-20');
      expect(vcn.endDate).toBe(endDate);
      expect(vcn.maxPurchaseQuantity).toBe(max);
    },
  );

  it.each([1, 100000])('when maxPurchaseQuantity is %i, then it is the effective value', async (max) => {
    expect((await issue(acme, customRequest({ maxPurchaseQuantity: max }))).maxPurchaseQuantity).toBe(max);
  });

  it.each([0, 100001])('when maxPurchaseQuantity is %i, then 400 bad-request-exception', async (max) => {
    expectVcnError(await post(customRequest({ maxPurchaseQuantity: max })), 400, 'bad-request-exception', [
      'body.maxPurchaseQuantity',
    ]);
  });
});

describe('createVcn: blocks', () => {
  const amount = { rate: 100, taxes: 0, currency: 'BRL' };
  const limit = { value: 100, currency: 'BRL' };
  it.each([
    ['HOTEL without hotelBooking', () => loose({ ...hotelRequest(), hotelBooking: undefined })],
    ['HOTEL without amount', () => loose({ ...hotelRequest(), amount: undefined })],
    ['HOTEL with limit', () => hotelRequest({ limit })],
    ['HOTEL with flightBooking', () => hotelRequest({ flightBooking: aerialRequest().flightBooking })],
    ['AERIAL without flightBooking', () => loose({ ...aerialRequest(), flightBooking: undefined })],
    ['AERIAL with customUse', () => aerialRequest({ customUse: { id: 'X-1' } })],
    ['AERIAL with hotelBooking', () => aerialRequest({ hotelBooking: hotelRequest().hotelBooking })],
    ['CUSTOM with amount', () => customRequest({ amount })],
    ['CUSTOM without limit', () => loose({ ...customRequest(), limit: undefined })],
    ['CUSTOM without customUse', () => loose({ ...customRequest(), customUse: undefined })],
    ['CUSTOM with hotelBooking', () => customRequest({ hotelBooking: hotelRequest().hotelBooking })],
  ])('when %s, then 400 invalid-vcn-request', async (_case, body) => {
    const error = expectVcnError(await post(body()), 400, 'invalid-vcn-request');
    expect(error.errors).toBeUndefined();
  });

  it('when a field is unknown, then 400 bad-request-exception naming it with the body. prefix', async () => {
    expectVcnError(await post(loose({ ...customRequest(), partner: 'obt' })), 400, 'bad-request-exception', [
      'body.partner',
    ]);
  });

  it('when requestor is missing, then 400 bad-request-exception', async () => {
    expectVcnError(await post(loose({ ...customRequest(), requestor: undefined })), 400, 'bad-request-exception', [
      'body.requestor',
    ]);
  });

  it('when type is AIR (the former name), then 400 bad-request-exception', async () => {
    expectVcnError(await post(loose({ ...aerialRequest(), type: 'AIR' })), 400, 'bad-request-exception', ['body.type']);
  });

  it('when customFields is empty, then 400; with one valid item, then 201', async () => {
    expectVcnError(await post(customRequest({ customFields: [] })), 400, 'bad-request-exception', [
      'body.customFields',
    ]);
    await issue(acme, customRequest({ customFields: [{ name: 'trip', value: '2026-12-10', dataType: 'DATE' }] }));
  });

  it.each([
    ['NUMBER', '12,5'],
    ['DATE', '10/12/2026'],
    ['DATE', '2026-02-30'],
    ['BOOLEAN', 'yes'],
  ] as const)('when a %s custom field holds %s, then 400 invalid-vcn-request', async (dataType, value) => {
    expectVcnError(
      await post(customRequest({ customFields: [{ name: 'x', value, dataType }] })),
      400,
      'invalid-vcn-request',
    );
  });

  it('when checkOut is not after checkIn, then 400 invalid-vcn-request', async () => {
    const base = hotelRequest();
    expectVcnError(
      await post(hotelRequest({ hotelBooking: { ...base.hotelBooking!, checkOut: base.hotelBooking!.checkIn } })),
      400,
      'invalid-vcn-request',
    );
  });
});

describe('createVcn: amounts', () => {
  it.each([19.99, 0.07, 0.01])('when the CUSTOM limit is %s, then it is kept exactly', async (value) => {
    expect((await issue(acme, customRequest({ limit: { value, currency: 'BRL' } }))).limit.value).toBe(value);
  });

  it.each([0.009, 0, 19.999])(
    'when the CUSTOM limit is %s, then 400 bad-request-exception on body.limit.value',
    async (value) => {
      expectVcnError(await post(customRequest({ limit: { value, currency: 'BRL' } })), 400, 'bad-request-exception', [
        'body.limit.value',
      ]);
    },
  );

  it('when rate is 19.99 and taxes 0.07, then the ceiling is exactly 20.06', async () => {
    const vcn = await issue(acme, hotelRequest({ amount: { rate: 19.99, taxes: 0.07, currency: 'BRL' } }));
    expect(vcn.amount).toEqual({ rate: 19.99, taxes: 0.07, fees: 0, currency: 'BRL' });
    expect(vcn.limit.value).toBe(20.06);
  });

  it('when the amount is 0.01 in total, then 201', async () => {
    expect((await issue(acme, aerialRequest({ amount: { rate: 0, taxes: 0.01, currency: 'BRL' } }))).limit.value).toBe(
      0.01,
    );
  });

  it.each(['rate', 'taxes', 'fees'] as const)(
    'when amount.%s has 3 decimals (0.009), then 400 naming it, never rounded',
    async (member) => {
      const amount = { rate: 10, taxes: 1, fees: 1, currency: 'BRL', [member]: 0.009 };
      expectVcnError(await post(hotelRequest({ amount })), 400, 'bad-request-exception', [`body.amount.${member}`]);
    },
  );

  it('when rate + taxes + fees is 0, then 400 invalid-vcn-request', async () => {
    expectVcnError(
      await post(hotelRequest({ amount: { rate: 0, taxes: 0, fees: 0, currency: 'BRL' } })),
      400,
      'invalid-vcn-request',
    );
  });

  it('when a member is negative, then 400 bad-request-exception', async () => {
    expectVcnError(
      await post(hotelRequest({ amount: { rate: 100, taxes: -1, currency: 'BRL' } })),
      400,
      'bad-request-exception',
      ['body.amount.taxes'],
    );
  });
});

describe('createVcn: funding', () => {
  it('when the company has no funding card for the currency, then 400 active-funding-card-not-found', async () => {
    expectVcnError(
      await post(customRequest({ limit: { value: 10, currency: 'EUR' } })),
      400,
      'active-funding-card-not-found',
    );
  });

  it('when USD is funded, then a USD card is issued', async () => {
    expect((await issue(acme, hotelRequest({ amount: { rate: 300, taxes: 30, currency: 'USD' } }))).limit).toEqual({
      value: 330,
      currency: 'USD',
    });
  });

  it('when the company has no funding cards at all, then 400 active-funding-card-not-found', async () => {
    const bare = await server.newCompany();
    expectVcnError(await post(hotelRequest(), bare), 400, 'active-funding-card-not-found');
  });

  it('when the currency is not three capital letters, then 400 bad-request-exception', async () => {
    expectVcnError(await post(customRequest({ limit: { value: 10, currency: 'brl' } })), 400, 'bad-request-exception', [
      'body.limit.currency',
    ]);
  });
});
