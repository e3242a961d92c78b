// The OAuth discovery documents: the authorization server's metadata (RFC 8414) and the protected
// resource's (RFC 9728), both describing this one service, and the URL every Bearer 401 names in
// `WWW-Authenticate: Bearer resource_metadata="…"` so a client (an MCP assistant) finds them.
// They advertise the client-credentials grant of the company's own clients and, for apps acting for
// a company, the authorization-code grant with PKCE (S256 only), refresh, registration, revocation and
// introspection.
import type { Request, Response } from 'express';
import type { Config } from '../config.js';
import { defaultScopes } from '../areas/auth/public.js';
import { servedBaseUrl } from './served-contract.js';

export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** Where the protected-resource metadata of the API served at `baseUrl` lives. */
export const resourceMetadataUrl = (baseUrl: string) => `${baseUrl}${PROTECTED_RESOURCE_PATH}`;

/** RFC 8414 §2: the authorization server, whose issuer is the service's base URL. */
export function authorizationServerMetadata(baseUrl: string, config: Config) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    registration_endpoint: `${baseUrl}/oauth/register`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    introspection_endpoint: `${baseUrl}/oauth/introspect`,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    // RFC 9207: the authorization answer names the issuer (`iss`), against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
    scopes_supported: defaultScopes(config.sandboxHelpers),
    service_documentation: `${baseUrl}/docs`,
  };
}

/** RFC 9728 §2: the API as a protected resource, served by the authorization server above. */
export function protectedResourceMetadata(baseUrl: string, config: Config) {
  return {
    resource: baseUrl,
    authorization_servers: [baseUrl],
    scopes_supported: defaultScopes(config.sandboxHelpers),
    bearer_methods_supported: ['header'],
    resource_name: 'Company Finance Service API',
    resource_documentation: `${baseUrl}/docs`,
  };
}

/** The Express handler of one of the two documents; public, cacheable for an hour. */
export const metadataEndpoint =
  (config: Config, document: (baseUrl: string, config: Config) => object) => (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(document(servedBaseUrl(req, config), config));
  };
