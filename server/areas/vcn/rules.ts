// The rules of issuing a card that the schema cannot express: blocks per type, the price,
// the window and the defaults. Breaking one is 400 invalid-vcn-request.
import type { components } from '../../../generated/openapi.js';
import { invalidVcnRequest } from '../../kit/errors.js';
import { toMinor } from '../../lib/money.js';
import { addDays, daysBetween } from '../../lib/time.js';
import { MAX_VALIDITY_DAYS } from './dates.js';
import type { VcnType } from './tables.js';

type Schemas = components['schemas'];
/**
 * A create request as the validator lets it through: any type with any of the blocks (the contract's
 * variants are checked here, so that a wrong block is named rather than reported once per variant).
 */
type VcnCreate = Omit<Schemas['VcnCreateHotel'], 'type' | 'amount' | 'hotelBooking'> & {
  type: VcnType;
  amount?: Schemas['VcnAmountCreate'];
  limit?: Schemas['VcnLimitCreate'];
  hotelBooking?: Schemas['HotelBooking'];
  flightBooking?: Schemas['FlightBooking'];
  customUse?: Schemas['CustomUse'];
};

/** What to issue, once every rule holds. */
export interface IssuePlan {
  type: VcnType;
  /** The idempotency key and the name of the field it came from. */
  key: string;
  keyField: string;
  currency: string;
  limitMinor: number;
  price: { rateMinor: number; taxesMinor: number; feesMinor: number } | null;
  startDate: string;
  endDate: string;
  maxPurchaseQuantity: number;
  booking: Schemas['HotelBooking'] | Schemas['FlightBooking'] | Schemas['CustomUse'];
  customFields: Schemas['CustomField'][] | null;
  requestor: Schemas['Requestor'];
}

type Block = 'amount' | 'limit' | 'hotelBooking' | 'flightBooking' | 'customUse';
const BLOCKS: readonly Block[] = ['amount', 'limit', 'hotelBooking', 'flightBooking', 'customUse'];
const REQUIRED: Record<VcnType, readonly Block[]> = {
  HOTEL: ['amount', 'hotelBooking'],
  AERIAL: ['amount', 'flightBooking'],
  CUSTOM: ['limit', 'customUse'],
};
const DEFAULT_MAX_PURCHASES: Record<VcnType, number> = { HOTEL: 3, AERIAL: 2, CUSTOM: 10000 };

/** Exactly the blocks the type asks for: each missing or forbidden one is named. */
function checkBlocks(body: VcnCreate): void {
  const problems = BLOCKS.flatMap((block) => {
    const required = REQUIRED[body.type].includes(block);
    const present = body[block] !== undefined;
    if (required && !present) return [`${block} is required when type is ${body.type}`];
    if (!required && present) return [`${block} is not allowed when type is ${body.type}`];
    return [];
  });
  if (problems.length > 0) throw invalidVcnRequest(problems.join('; '));
}

const isCalendarDay = (value: string) =>
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value) &&
  !Number.isNaN(Date.parse(value)) &&
  new Date(value).toISOString().startsWith(value);
const VALUE_CHECKS: Record<Schemas['CustomField']['dataType'], (value: string) => boolean> = {
  STRING: () => true,
  NUMBER: (value) => /^-?[0-9]+(\.[0-9]+)?$/.test(value),
  DATE: isCalendarDay,
  BOOLEAN: (value) => value === 'true' || value === 'false',
};

function checkCustomFields(fields: Schemas['CustomField'][] | undefined): void {
  fields?.forEach((field, i) => {
    if (!VALUE_CHECKS[field.dataType](field.value)) {
      throw invalidVcnRequest(`customFields[${i}].value is not a valid ${field.dataType}`);
    }
  });
}

/** The ceiling and price of a HOTEL or AERIAL card. */
function priceOf(body: VcnCreate) {
  const amount = body.amount!;
  const price = {
    rateMinor: toMinor(amount.rate),
    taxesMinor: toMinor(amount.taxes),
    feesMinor: toMinor(amount.fees ?? 0),
  };
  const total = price.rateMinor + price.taxesMinor + price.feesMinor;
  if (total <= 0) throw invalidVcnRequest('amount.rate + amount.taxes + amount.fees must be greater than 0');
  const hotel = body.hotelBooking;
  // A zero (or absent) margin is consistent with any allowExtraCharges; only a positive one needs true.
  if (
    hotel?.extraChargesMargin !== undefined &&
    toMinor(hotel.extraChargesMargin) > 0 &&
    hotel.allowExtraCharges !== true
  ) {
    throw invalidVcnRequest('a positive hotelBooking.extraChargesMargin needs hotelBooking.allowExtraCharges true');
  }
  const margin = hotel?.allowExtraCharges ? toMinor(hotel.extraChargesMargin ?? 0) : 0;
  return { price, limitMinor: total + margin, currency: amount.currency };
}

/** The window: startDate defaults to the issuance day, endDate to the type's validity. */
function windowOf(body: VcnCreate, today: string): { startDate: string; endDate: string } {
  const startDate = body.startDate ?? today;
  if (startDate < today) throw invalidVcnRequest(`startDate must not be before the issuance day (${today})`);
  let endDate = body.endDate;
  let origin = 'endDate';
  if (endDate === undefined) {
    if (body.type === 'HOTEL')
      [endDate, origin] = [addDays(body.hotelBooking!.checkOut, 20), 'the default endDate (checkOut + 20 days)'];
    else if (body.type === 'AERIAL') [endDate, origin] = [addDays(today, 1), 'the default endDate (issuance + 1 day)'];
    else [endDate, origin] = [addDays(today, 60), 'the default endDate (issuance + 60 days)'];
  }
  if (endDate <= startDate) {
    const start = body.startDate === undefined ? `the issuance day (${today})` : `startDate (${startDate})`;
    throw invalidVcnRequest(`${origin} ${endDate} must be after ${start}`);
  }
  if (daysBetween(today, endDate) > MAX_VALIDITY_DAYS) {
    const latest = addDays(today, MAX_VALIDITY_DAYS);
    throw invalidVcnRequest(
      `${origin} ${endDate} must be at most ${MAX_VALIDITY_DAYS} days after the issuance day (${latest} at the latest)`,
    );
  }
  return { startDate, endDate };
}

/** Applies every issue rule to a schema-valid request; `today` is the issuance day in the company's time zone. */
export function planIssue(body: VcnCreate, today: string): IssuePlan {
  checkBlocks(body);
  checkCustomFields(body.customFields);
  const hotel = body.hotelBooking;
  if (hotel && hotel.checkOut <= hotel.checkIn)
    throw invalidVcnRequest('hotelBooking.checkOut must be after hotelBooking.checkIn');
  const money =
    body.type === 'CUSTOM'
      ? { price: null, limitMinor: toMinor(body.limit!.value), currency: body.limit!.currency }
      : priceOf(body);
  const { key, keyField, booking } =
    body.type === 'HOTEL'
      ? { key: hotel!.reservationId, keyField: 'reservationId', booking: hotel! }
      : body.type === 'AERIAL'
        ? { key: body.flightBooking!.recordLocator, keyField: 'recordLocator', booking: body.flightBooking! }
        : { key: body.customUse!.id, keyField: 'customUse.id', booking: body.customUse! };
  return {
    type: body.type,
    key,
    keyField,
    ...money,
    ...windowOf(body, today),
    maxPurchaseQuantity: body.maxPurchaseQuantity ?? DEFAULT_MAX_PURCHASES[body.type],
    booking,
    customFields: body.customFields ?? null,
    requestor: body.requestor,
  };
}

/** A new endDate of an update: not in the past, after startDate, within 365 days of issuance. */
export function checkNewEndDate(endDate: string, card: { issuedOn: string; startDate: string }, today: string): void {
  if (endDate < today) throw invalidVcnRequest(`endDate ${endDate} is in the past (today is ${today})`);
  if (endDate <= card.startDate)
    throw invalidVcnRequest(`endDate ${endDate} must be after startDate (${card.startDate})`);
  if (daysBetween(card.issuedOn, endDate) > MAX_VALIDITY_DAYS) {
    const latest = addDays(card.issuedOn, MAX_VALIDITY_DAYS);
    throw invalidVcnRequest(
      `endDate ${endDate} must be at most ${MAX_VALIDITY_DAYS} days after the issuance day (${latest} at the latest)`,
    );
  }
}
