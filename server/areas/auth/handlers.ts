// POST /oauth/token: the OAuth 2.0 client-credentials grant (RFC 6749 §4.4, errors §5.2). The other
// grants are the apps area's; server/operations.ts routes by grant_type, for /oauth/token and for
// /oauth/v1/access-token, the provider's live path (one operation, two paths).
import basicAuth from 'basic-auth';
import { defineHandlers } from '../../kit/handler.js';
import { OAuthError } from '../../kit/errors.js';
import { authenticateClient, issueToken } from './store.js';
import { formDecoded } from './form-decode.js';
import { assertNotThrottled, recordFailure } from './throttle.js';

export const handlers = defineHandlers({
  createToken: async ({ body }, { db, clock, config, req, logFields }) => {
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
    await assertNotThrottled(db, attempt, clock.now(), limits);
    const client = await authenticateClient(db, clock, clientId, secret);
    if (!client) {
      await recordFailure(db, attempt, clock.now());
      throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
    }

    const granted = client.scopes.split(' ').filter(Boolean);
    const asked = body.scope?.split(' ').filter(Boolean);
    const refused = asked?.filter((s) => !granted.includes(s)) ?? [];
    if (refused.length > 0)
      throw new OAuthError(400, 'invalid_scope', `Scopes not granted to this client: ${refused.join(' ')}`);
    const scopes = asked && asked.length > 0 ? [...new Set(asked)] : granted;

    // A token got with the previous secret of a rotation ends with its grace.
    const ttlSeconds = client.graceEndsAt
      ? Math.max(
          1,
          Math.min(config.tokenTtlSeconds, Math.floor((Date.parse(client.graceEndsAt) - clock.now().getTime()) / 1000)),
        )
      : config.tokenTtlSeconds;
    const token = await issueToken(db, clock, { clientId, companyId: client.company_id, scopes, ttlSeconds });
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      body: { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds, scope: scopes.join(' ') },
    };
  },
});
