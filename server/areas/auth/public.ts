// What other areas may use of the auth area, which owns the companies: a company's clock and time
// zone, for the callers that have no token carrying them. Also what the pipeline and the start-up use:
// the token lookup, the server secrets, the scopes and the companies; the worker's expiry of unused clients.
export { expireUnusedClients } from './clients.js';
export { clockOffset, companyClocks, largestClockOffset } from './company-clock.js';
export { companyNameAndZone, companyTimeZone } from './company-zone.js';
export { resolveSecrets } from './server-secrets.js';
export { ALL_SCOPES, defaultScopes, listCompanies, lookupToken, type TokenRefusal } from './store.js';
