// What other areas may use of the auth area, which owns the companies: a company's clock and time
// zone, for the callers that have no token carrying them. Also what the pipeline and the start-up use:
// the token lookup, the server secrets, the scopes and the companies; the worker's expiry of unused
// clients. The apps area (authorization code) authenticates its clients and throttles guesses with
// the same secrets and counters, audits refused token requests as the token endpoint does, and
// serves RFC 7009 revocation and RFC 7662 introspection of the API clients' tokens too.
export { expireUnusedClients } from './clients.js';
export { clockOffset, companyClocks, largestClockOffset } from './company-clock.js';
export { companyNameAndZone, companyTimeZone } from './company-zone.js';
export { resolveSecrets } from './server-secrets.js';
export {
  ALL_SCOPES,
  authenticateClient,
  defaultScopes,
  FIRST_PARTY_SCOPES,
  firstPartyOf,
  listCompanies,
  lookupToken,
  type TokenRefusal,
} from './store.js';
export { digestToken, hashSecret, newSecret, verifySecret } from './secrets.js';
export { assertNotThrottled, clearClientFailures, recordFailure } from './throttle.js';
export { refuseToken } from './refusals.js';
export { describeClientToken, revokeClientToken } from './token-info.js';
export { formDecoded } from './form-decode.js';
export {
  GRANT_TOKEN_PREFIX,
  issueGrantAccessToken,
  revokeGrantAccessToken,
  revokeGrantAccessTokens,
} from './grant-tokens.js';
