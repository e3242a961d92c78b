// What other areas may use of the auth area, which owns the companies: a company's clock and time
// zone, for the callers that have no token carrying them. Also what the pipeline and the start-up use:
// the token lookup, the server secrets, the scopes and the companies; the worker's expiry of unused
// clients. The apps area (authorization code) authenticates its clients and throttles guesses with
// the same secrets and counters.
export { expireUnusedClients } from './clients.js';
export { clockOffset, companyClocks, largestClockOffset } from './company-clock.js';
export { companyNameAndZone, companyTimeZone } from './company-zone.js';
export { resolveSecrets } from './server-secrets.js';
export { ALL_SCOPES, defaultScopes, listCompanies, lookupToken, type TokenRefusal } from './store.js';
export { digestToken, hashSecret, newSecret, verifySecret } from './secrets.js';
export { assertNotThrottled, recordFailure } from './throttle.js';
export { formDecoded } from './form-decode.js';
export { issueGrantAccessToken, revokeGrantAccessToken, revokeGrantAccessTokens } from './grant-tokens.js';
