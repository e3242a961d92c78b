// What a client learns and ends of its own tokens, through oauth4webapi: RFC 7662 introspection
// (the company behind an app's token; nothing about anyone else's), RFC 7009 revocation by API
// clients, and malformed requests to every OAuth endpoint told what is wrong in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { approveAndExchange, discover, insecure, registerPublicApp } from './support/oauth-flow.js';

let server: TestServer;
let acme: TestCompany;
let as: oauth.AuthorizationServer;
let app: oauth.Client;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany({ name: 'Acme Comércio Ltda', scopes: ['statements:read', 'apps:manage'] });
  as = await discover(server);
  app = await registerPublicApp(as);
});
afterAll(async () => server.close());

const introspect = async (client: oauth.Client, auth: oauth.ClientAuth, token: string) =>
  oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, token, insecure));

/** An API client of `company` as oauth4webapi sees it, with its Basic credentials. */
const apiClient = (company: TestCompany) =>
  [{ client_id: company.clientId }, oauth.ClientSecretBasic(company.clientSecret)] as const;

describe('introspectOAuthToken (RFC 7662)', () => {
  it('when an app introspects its access and refresh tokens, then it learns the company that approved it, the scopes and the expiry', async () => {
    expect(as.introspection_endpoint).toBe(`${server.baseUrl}/oauth/introspect`);
    const tokens = await approveAndExchange(server, as, app, acme.companyId, { scope: 'statements:read' });
    const access = await introspect(app, oauth.None(), tokens.access_token);
    expect(access).toMatchObject({
      active: true,
      scope: 'statements:read',
      client_id: app.client_id,
      token_type: 'Bearer',
      company_id: acme.companyId,
      company_name: 'Acme Comércio Ltda',
    });
    expect(access.exp! - access.iat!).toBe(1800);
    expect(await introspect(app, oauth.None(), tokens.refresh_token!)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      company_id: acme.companyId,
      scope: 'statements:read',
    });

    // Nothing for another app, an unknown token, or once the company revoked the grant.
    const other = await registerPublicApp(as, { client_name: 'Other app' });
    expect(await introspect(other, oauth.None(), tokens.access_token)).toEqual({ active: false });
    expect(await introspect(app, oauth.None(), 'oat_unknown')).toEqual({ active: false });
    const grantId = (await acme.api.GET('/apps/v1/grants', {})).data!.items[0]!.id;
    await acme.api.DELETE('/apps/v1/grants/{grantId}', { params: { path: { grantId } } });
    expect(await introspect(app, oauth.None(), tokens.access_token)).toEqual({ active: false });
    expect(await introspect(app, oauth.None(), tokens.refresh_token!)).toEqual({ active: false });
  });

  it('when an API client introspects its own token or another client’s, then it learns about its own only; a wrong secret is invalid_client', async () => {
    const globex = await server.newCompany({ scopes: ['statements:read'] });
    const [client, auth] = apiClient(acme);
    expect(await introspect(client, auth, acme.token)).toMatchObject({
      active: true,
      client_id: acme.clientId,
      company_id: acme.companyId,
      scope: 'statements:read apps:manage',
    });
    expect(await introspect(client, auth, globex.token)).toEqual({ active: false });
    const wrong = await oauth.introspectionRequest(
      as,
      client,
      oauth.ClientSecretBasic('sk_wrong'),
      acme.token,
      insecure,
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('revokeOAuthToken by API clients (RFC 7009)', () => {
  it('when an API client revokes its token, then it stops; another client’s does not; revoking often never locks the client out of the token endpoint', async () => {
    const company = await server.newCompany({ scopes: ['statements:read'] });
    const other = await server.newCompany({ scopes: ['statements:read'] });
    const [client, auth] = apiClient(company);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, other.token, insecure));
    expect((await other.api.GET('/statements/v1/banking', {})).response.status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, company.token, insecure));
    expect((await company.api.GET('/statements/v1/banking', {})).response.status).toBe(401);
    for (let i = 0; i < 11; i++)
      expect((await oauth.revocationRequest(as, client, auth, `unknown-${i}`, insecure)).status).toBe(200);
    const res = await oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams(), insecure);
    const token = await oauth.processClientCredentialsResponse(as, client, res);
    expect((await server.apiWithToken(token.access_token).GET('/statements/v1/banking', {})).response.status).toBe(200);
  });
});

describe('malformed OAuth requests', () => {
  it('when a request to /oauth/token, /oauth/revoke, /oauth/introspect or /oauth/register is malformed, then error_description says what is wrong', async () => {
    const post = (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': type }, body });
    const cases: [Response, string][] = [
      [await post('/oauth/token', ''), 'Missing field "grant_type" in the body'],
      [await post('/oauth/token', 'grant_type=client_credentials&grant_type=x'), 'grant_type must be a string'],
      [await post('/oauth/token', `grant_type=${'x'.repeat(65)}`), 'grant_type must have at most 64 characters'],
      [await post('/oauth/revoke', 'token_type_hint=x'), 'Missing field "token" in the body'],
      [await post('/oauth/introspect', 'token=a&token=b'), 'token must be a string'],
      [await post('/oauth/register', '{"client_name":1}', 'application/json'), 'client_name must be a string'],
    ];
    for (const [res, said] of cases) {
      const body = (await res.json()) as { error: string; error_description: string };
      expect(res.status, said).toBe(400);
      expect(body.error, said).toBe('invalid_request');
      expect(body.error_description, said).toContain(said);
      expect(body.error_description, said).not.toContain('[object');
    }
  });
});
