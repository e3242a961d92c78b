// What other areas may use of the auth area, which owns the companies: a company's clock and time
// zone, for the callers that have no token carrying them.
export { clockOffset, companyClocks, largestClockOffset } from './company-clock.js';
export { companyNameAndZone, companyTimeZone } from './company-zone.js';
