// Rows → the contract's response shapes.
import type { components } from '../../../generated/openapi.js';
import type { Config } from '../../config.js';
import { fromMinor } from '../../lib/money.js';
import { deriveCvv, openPan } from './crypto.js';
import { expirationOf } from './dates.js';
import { effectiveStatus } from './status.js';
import type { VcnRow, VcnTransactionRow } from './tables.js';

type Schemas = components['schemas'];

const BOOKING_FIELD = { HOTEL: 'hotelBooking', AERIAL: 'flightBooking', CUSTOM: 'customUse' } as const;

/** The card data: PAN decrypted, CVV derived (never stored), expiration from the window. */
export function cardData(
  row: VcnRow,
  secrets: Config['secrets'],
  pan = openPan(secrets, row.id, row.pan_ciphertext),
): Schemas['VcnCard'] {
  const expirationDate = expirationOf(row.end_date);
  return { pan, cvv: deriveCvv(secrets.cvvKey, pan, expirationDate), expirationDate };
}

export function presentVcn(row: VcnRow, card: Schemas['VcnCard'], today: string): Schemas['Vcn'] {
  const money = { limit: { value: fromMinor(row.limit_minor), currency: row.currency } };
  const amount =
    row.rate_minor === null
      ? {}
      : {
          amount: {
            rate: fromMinor(row.rate_minor),
            taxes: fromMinor(row.taxes_minor ?? 0),
            fees: fromMinor(row.fees_minor ?? 0),
            currency: row.currency,
          },
        };
  return {
    vcnId: row.id,
    type: row.type,
    [BOOKING_FIELD[row.type]]: JSON.parse(row.booking) as unknown,
    status: effectiveStatus(row.status, row.end_date, today),
    startDate: row.start_date,
    endDate: row.end_date,
    ...amount,
    ...money,
    maxPurchaseQuantity: row.max_purchase_quantity,
    card,
  };
}

export function presentSummary(row: VcnRow, today: string): Schemas['VcnSummary'] {
  return {
    vcnId: row.id,
    status: effectiveStatus(row.status, row.end_date, today),
    limit: { value: fromMinor(row.limit_minor), currency: row.currency },
    startDate: row.start_date,
    endDate: row.end_date,
  };
}

export function presentTransaction(row: VcnTransactionRow): Schemas['VcnTransaction'] {
  return {
    transactionId: row.id,
    status: row.status,
    amount: { value: fromMinor(row.amount_minor), currency: row.currency },
    date: row.occurred_at,
    merchantName: row.merchant_name,
    merchantCategory: row.merchant_category,
    ...(row.authorization_code ? { authorizationCode: row.authorization_code } : {}),
    ...(row.decline_reason ? { declineReason: row.decline_reason as Schemas['VcnDeclineReason'] } : {}),
  };
}

/** The purchase behind a `vcn.authorized` or `vcn.declined` event (`data.authorization`). */
export function presentAuthorization(row: VcnTransactionRow): Schemas['VcnEventAuthorization'] {
  return {
    transactionId: row.id,
    approved: row.status === 'APPROVED',
    amount: { value: fromMinor(row.amount_minor), currency: row.currency },
    merchant: { name: row.merchant_name, mcc: row.merchant_category },
    date: row.occurred_at,
    ...(row.authorization_code ? { authorizationCode: row.authorization_code } : {}),
    ...(row.decline_reason ? { declineReason: row.decline_reason as Schemas['VcnDeclineReason'] } : {}),
  };
}

/** The card without card data, with what it has spent (the read operations and events). */
export function presentDetails(
  row: VcnRow,
  spending: { spentMinor: number; purchases: number },
  today: string,
): Schemas['VcnDetails'] {
  const { card: _card, ...rest } = presentVcn(row, { pan: '', cvv: '', expirationDate: '' }, today);
  return {
    ...rest,
    spent: { value: fromMinor(spending.spentMinor), currency: row.currency },
    purchaseCount: spending.purchases,
    last4: row.pan_last4,
    createdAt: row.created_at,
  };
}
