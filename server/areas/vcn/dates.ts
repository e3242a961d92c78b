// Card windows: calendar days in the company's time zone (server/lib/time.ts).

/** Card expiration `MM/YYYY`: the month of the last valid day. */
export function expirationOf(endDate: string): string {
  return `${endDate.slice(5, 7)}/${endDate.slice(0, 4)}`;
}

/** The longest window: endDate at most this many days after the issuance day. */
export const MAX_VALIDITY_DAYS = 365;
