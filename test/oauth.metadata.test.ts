import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestServer, type TestCompany } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany({ scopes: ['statements:read'] });
});
afterAll(async () => server.close());

// The library's discovery is for https issuers; the test server is plain http on loopback.
const insecure = { [oauth.allowInsecureRequests]: true };

describe('OAuth discovery', () => {
  it('when a client discovers the authorization server, then the metadata names the issuer, the token endpoint and the scopes', async () => {
    const issuer = new URL(server.baseUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
    );
    expect(as.issuer).toBe(server.baseUrl);
    expect(as.token_endpoint).toBe(`${server.baseUrl}/oauth/token`);
    expect(as.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.response_types_supported).toEqual(['code']);
    expect(as.authorization_endpoint).toBe(`${server.baseUrl}/oauth/authorize`);
    expect(as.registration_endpoint).toBe(`${server.baseUrl}/oauth/register`);
    expect(as.revocation_endpoint).toBe(`${server.baseUrl}/oauth/revoke`);
    expect(as.scopes_supported).toContain('statements:read');

    // The token endpoint it names answers the client-credentials grant, read by the same library.
    const client = { client_id: acme.clientId };
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(acme.clientSecret),
      { scope: 'statements:read' },
      insecure,
    );
    const token = await oauth.processClientCredentialsResponse(as, client, res);
    expect(token).toMatchObject({ token_type: 'bearer', scope: 'statements:read' });
  });

  it('when a client discovers the protected resource, then it names this service as resource and authorization server', async () => {
    const resource = new URL(server.baseUrl);
    const rs = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure),
    );
    expect(rs).toMatchObject({
      resource: server.baseUrl,
      authorization_servers: [server.baseUrl],
      bearer_methods_supported: ['header'],
    });
    expect(rs.scopes_supported).toContain('vcn:reveal');
  });

  it('when an API call has no token, then its 401 challenge names the resource metadata a client can follow', async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="finance", resource_metadata="/);
    // The library reads the challenge as a client would, from a refused call with a unknown token.
    const refused = await oauth
      .protectedResourceRequest(
        'unknown',
        'GET',
        new URL(`${server.baseUrl}/statements/v1/banking`),
        undefined,
        undefined,
        insecure,
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const [challenge] = (refused as oauth.WWWAuthenticateChallengeError).cause;
    expect(challenge?.scheme).toBe('bearer');
    const metadata = challenge?.parameters.resource_metadata;
    expect(metadata).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource`);
    const followed = await fetch(metadata!);
    expect(followed.status).toBe(200);
    expect(((await followed.json()) as { resource: string }).resource).toBe(server.baseUrl);
  });

  it('when the token is unknown or lacks the scope, then the challenge still names the resource metadata', async () => {
    const unknown = await server.apiWithToken('not-a-token').GET('/statements/v1/banking');
    expect(unknown.response.status).toBe(401);
    expect(unknown.response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="finance", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource", error="invalid_token"/,
    );
    const narrow = await acme.api.GET('/suppliers/v1/suppliers');
    expect(narrow.response.status).toBe(403);
    expect(narrow.response.headers.get('www-authenticate')).toContain('resource_metadata="');
  });
});
