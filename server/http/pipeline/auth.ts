// Bearer-token authentication and scope checks, before anything reads the request body.
// Only the operations that take a token get this step (pipeline.ts), with the scopes the contract
// gives them.
import type { Services, AuthContext } from '../../kit/handler.js';
import { forbidden, unauthorized } from '../../kit/errors.js';
import { lookupToken, type TokenRefusal } from '../../areas/auth/public.js';
import type { ContractOperation } from '../../contract/index.js';
import type { Step } from './context.js';
import { offsetClock } from '../../lib/clock.js';
import { servedBaseUrl } from '../served-contract.js';
import { resourceMetadataUrl } from '../oauth-metadata.js';

// RFC 7235: the scheme name is case-insensitive (`bearer` works as `Bearer`).
const SCHEME = /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?:\s+(.*?))?\s*$/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

// RFC 9728 §5.1: every challenge names the resource metadata, where a client finds how to get a token.
const challenge = (metadata: string, error: string | undefined, description: string) =>
  `Bearer realm="finance", resource_metadata="${metadata}"${error ? `, error="${error}"` : ''}, error_description="${description}"`;

/** A 401 that says what is wrong with the credentials, in the body and in WWW-Authenticate. */
const refuse = (metadata: string, message: string, error: string | undefined, description: string) =>
  unauthorized(message, challenge(metadata, error, description));

type Credentials = { token: string } | { problem: ReturnType<typeof unauthorized> };

/** The bearer token of the Authorization header, or the 401 that explains why there is none. */
function bearerToken(header: string | undefined, metadata: string): Credentials {
  if (!header?.trim()) {
    return {
      problem: refuse(
        metadata,
        'An access token is required: send `Authorization: Bearer <token>` (get a token from POST /oauth/token)',
        undefined,
        'no access token was sent',
      ),
    };
  }
  const [, scheme = '', rest = ''] = SCHEME.exec(header) ?? [];
  if (scheme.toLowerCase() !== 'bearer') {
    const named = scheme ? `the ${scheme} scheme` : 'no scheme';
    return {
      problem: refuse(
        metadata,
        `The Authorization header uses ${named}; API calls take \`Authorization: Bearer <token>\`. Client id and secret (HTTP Basic) are only for POST /oauth/token`,
        'invalid_request',
        'wrong authorization scheme: use Bearer',
      ),
    };
  }
  if (!TOKEN68.test(rest)) {
    return {
      problem: refuse(
        metadata,
        'The bearer token is malformed: send `Authorization: Bearer <token>` with the access_token from POST /oauth/token as is',
        'invalid_token',
        'malformed bearer token',
      ),
    };
  }
  return { token: rest };
}

const REFUSALS: Record<TokenRefusal, (expiredAt?: string) => [message: string, description: string]> = {
  unknown: () => [
    'The access token is not recognised: it was not issued by this server. Get a token from POST /oauth/token',
    'unknown access token',
  ],
  expired: (at) => [
    `The access token expired${at ? ` at ${at}` : ''}: get a new one from POST /oauth/token`,
    'the access token expired',
  ],
  revoked: () => [
    'The access token was revoked (its API client was revoked or its secret rotated): get a new one with current credentials',
    'the access token was revoked',
  ],
};

/** The operation's authentication and scope check; none for an operation that takes no token. */
export function authentication(operation: ContractOperation, services: Services): Step | undefined {
  const needed = operation.scopes;
  if (needed === undefined) return undefined;
  const insufficient = (metadata: string) =>
    `Bearer realm="finance", resource_metadata="${metadata}", error="insufficient_scope", scope="${needed.join(' ')}"`;
  return async (req, _res, context) => {
    const metadata = resourceMetadataUrl(servedBaseUrl(req, services.config));
    const credentials = bearerToken(req.headers.authorization, metadata);
    if ('problem' in credentials) throw credentials.problem;
    const found = await lookupToken(services.db, services.clock, credentials.token, services.kept?.tokens);
    if (!found.grant) {
      const [message, description] = REFUSALS[found.refused](found.expiredAt);
      throw refuse(metadata, message, 'invalid_token', description);
    }
    const grant = found.grant;
    if (needed.length > 0 && !needed.some((s) => grant.scopes.has(s))) {
      const error = forbidden(`This operation needs the scope ${needed.join(' or ')}`);
      error.headers['WWW-Authenticate'] = insufficient(metadata);
      throw error;
    }
    context.auth = { ...grant, companyClock: offsetClock(services.clock, grant.clockOffsetMs) } satisfies AuthContext;
  };
}
