// POST /oauth/token: the OAuth 2.0 client-credentials grant (RFC 6749 §4.4, errors §5.2). The other
// grants are the apps area's; server/operations.ts routes by grant_type, for /oauth/token and for
// /oauth/v1/access-token, the provider's live path (one operation, two paths).
import basicAuth from 'basic-auth';
import { defineHandlers } from '../../kit/handler.js';
import { OAuthError } from '../../kit/errors.js';
import { authenticateClient, issueVerifiedToken } from './store.js';
import { formDecoded } from './form-decode.js';
import { assertNotThrottled, clearClientFailures, recordFailure } from './throttle.js';
import { refuseToken } from './refusals.js';
import { plainAddress } from '../audit/public.js';
import { addressAllowed } from './ip-allowlist.js';

export const handlers = defineHandlers({
  createToken: async ({ body }, { db, clock, config, req, requestId, logFields }) => {
    if (body.grant_type !== 'client_credentials') {
      throw new OAuthError(
        400,
        'unsupported_grant_type',
        'Supported grant types: client_credentials, authorization_code, refresh_token',
      );
    }
    const basic = req.headers.authorization ? basicAuth(req) : undefined;
    if (req.headers.authorization && !basic) {
      throw new OAuthError(401, 'invalid_client', 'The Authorization header is not valid HTTP Basic');
    }
    if (basic && (body.client_id !== undefined || body.client_secret !== undefined)) {
      throw new OAuthError(400, 'invalid_request', 'Authenticate with HTTP Basic or with form fields, not both');
    }
    // PostgreSQL text cannot hold NUL: an id with one names no client, and is counted as one with U+FFFD.
    const clientId = (basic ? formDecoded(basic.name) : body.client_id)?.replaceAll('\u0000', '\uFFFD');
    const secret = basic ? formDecoded(basic.pass) : body.client_secret;
    // The access line names the client asked for (never the secret), refused or not.
    if (clientId) logFields({ clientId });
    if (!clientId || !secret) throw new OAuthError(401, 'invalid_client', 'Client authentication is required');

    const attempt = { clientId, address: req.ip ?? req.socket.remoteAddress ?? '' };
    const limits = { perSource: config.authSourceFailuresPerMinute, perClient: config.authFailuresPerMinute };
    const counted = await assertNotThrottled(db, attempt, clock.now(), limits);
    // A refusal of a client id that exists is written to its company's audit log (refusals.ts).
    const refusal = { db, clock, clientId, ip: attempt.address, requestId };
    const client = await authenticateClient(db, clock, clientId, secret);
    if (!client) {
      await recordFailure(db, attempt, clock.now());
      await refuseToken(refusal, 'invalid_credentials');
      throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
    }
    if (counted) await clearClientFailures(db, attempt);
    if (client.expires_at && Date.parse(client.expires_at) <= clock.now().getTime()) {
      await refuseToken(refusal, 'client_expired', client.company_id);
      throw new OAuthError(401, 'invalid_client', `The client expired at ${client.expires_at}`);
    }
    const allowedIps = client.allowed_ips ? (JSON.parse(client.allowed_ips) as string[]) : undefined;
    if (allowedIps && !addressAllowed(attempt.address, allowedIps)) {
      await refuseToken(refusal, 'address_not_allowed', client.company_id);
      throw new OAuthError(401, 'invalid_client', 'This client may not get tokens from this address');
    }

    const granted = client.scopes.split(' ').filter(Boolean);
    const asked = body.scope?.split(' ').filter(Boolean);
    const refused = asked?.filter((s) => !granted.includes(s)) ?? [];
    if (refused.length > 0) {
      await refuseToken(refusal, 'scope_not_granted', client.company_id, { scopes: refused });
      throw new OAuthError(400, 'invalid_scope', `Scopes not granted to this client: ${refused.join(' ')}`);
    }
    const scopes = asked && asked.length > 0 ? [...new Set(asked)] : granted;

    // A token got with the previous secret of a rotation ends with its grace; none outlives its client's expiry.
    const endsAt = Math.min(
      client.graceEndsAt ? Date.parse(client.graceEndsAt) : Number.POSITIVE_INFINITY,
      client.expires_at ? Date.parse(client.expires_at) : Number.POSITIVE_INFINITY,
    );
    const ttlSeconds = Number.isFinite(endsAt)
      ? Math.max(1, Math.min(config.tokenTtlSeconds, Math.floor((endsAt - clock.now().getTime()) / 1000)))
      : config.tokenTtlSeconds;
    const token = await issueVerifiedToken(db, clock, {
      clientId,
      companyId: client.company_id,
      scopes,
      ttlSeconds,
      address: plainAddress(attempt.address),
      verified: client.verified,
    });
    if (token === undefined) {
      // Revoked, or its secret rotated, since it was authenticated: refused as if it had come after.
      await recordFailure(db, attempt, clock.now());
      await refuseToken(refusal, 'invalid_credentials');
      throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
    }
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      body: { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds, scope: scopes.join(' ') },
    };
  },
});
