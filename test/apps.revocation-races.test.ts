// Revocation wins every race (docs/authorization.md): a grant revoked while its app refreshes, an API
// client deleted, or its secret rotated, while it asks for a token. Each race fires both requests
// together, one of them a few milliseconds late; afterwards no token either request obtained works,
// whichever the store took first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { approveAndExchange, discover, insecure, registerPublicApp } from './support/oauth-flow.js';
import { quickHash } from './support/secrets.js';
import { createClient } from '../server/areas/auth/store.js';

const RACES = 20;

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  // The token requests refused once their client is revoked are failed authentications from one
  // address: the per-address throttle would answer the later races 429 before they race.
  server = await startTestServer({ deliveries: 'manual', config: { authSourceFailuresPerMinute: 0 } });
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Both together, race `i` sending the token request up to 8 ms late, or the revocation 1 ms late.
 * The revocation reaches its write sooner, so it is the token request that waits: over these
 * offsets, on either store, some revocations commit before the token request reads, some between
 * its reads and its write (where the old code issued a token that outlived the revocation), some
 * after. Answers both results.
 */
async function race<A, B>(i: number, request: () => Promise<A>, revocation: () => Promise<B>): Promise<[A, B]> {
  const late = (i % 10) - 8;
  return Promise.all([pause(Math.max(0, -late)).then(request), pause(Math.max(0, late)).then(revocation)]);
}

/** The statuses a read endpoint answers each token with. */
const statusesWith = (tokens: string[]) =>
  Promise.all(
    tokens.map(async (token) => (await server.apiWithToken(token).GET('/statements/v1/banking')).response.status),
  );

describe('deleteGrant racing a refresh', () => {
  it('when a company revokes a grant while its app refreshes, then no access or refresh token of it works', async () => {
    const as = await discover(server);
    const app = await registerPublicApp(as);
    const grants: Array<{ id: string; tokens: oauth.TokenEndpointResponse }> = [];
    // One grant more than races: the last is the control, refreshed before its revocation is sent.
    for (let i = 0; i <= RACES; i += 1) {
      server.clock.advance(1000); // each new grant is the newest, first in the list
      const { data: approval } = await acme.api.POST('/apps/v1/approval-codes', {
        body: { scopes: ['statements:read'] },
      });
      const tokens = await approveAndExchange(
        server,
        as,
        app,
        acme.companyId,
        { scope: 'statements:read' },
        approval!.code,
      );
      const id = (await acme.api.GET('/apps/v1/grants', {})).data!.items[0]!.id;
      grants.push({ id, tokens });
    }

    const accessTokens: string[] = [];
    const refreshTokens: string[] = [];
    const control = grants.pop()!;
    for (const [i, { id, tokens }] of grants.entries()) {
      const [refresh, revoked] = await race(
        i,
        () => oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, insecure),
        () => acme.api.DELETE('/apps/v1/grants/{grantId}', { params: { path: { grantId: id } } }),
      );
      expect(revoked.response.status).toBe(204);
      accessTokens.push(tokens.access_token);
      refreshTokens.push(tokens.refresh_token!);
      const body = (await refresh.json()) as { access_token?: string; refresh_token?: string; error?: string };
      if (refresh.status === 200) {
        accessTokens.push(body.access_token!);
        refreshTokens.push(body.refresh_token!);
      } else expect({ status: refresh.status, error: body.error }).toEqual({ status: 400, error: 'invalid_grant' });
    }

    expect(await statusesWith(accessTokens)).toEqual(accessTokens.map(() => 401));
    const again = await Promise.all(
      refreshTokens.map(
        async (token) => (await oauth.refreshTokenGrantRequest(as, app, oauth.None(), token, insecure)).status,
      ),
    );
    expect(again).toEqual(refreshTokens.map(() => 400));
    // Not a vacuous pass whichever way the races fell on this machine: a refresh answered before its
    // grant's revocation, whose new tokens must die with the grant.
    const first = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), control.tokens.refresh_token!, insecure);
    expect(first.status).toBe(200);
    const renewed = (await first.json()) as { access_token: string };
    expect(await statusesWith([renewed.access_token])).toEqual([200]);
    const revoked = await acme.api.DELETE('/apps/v1/grants/{grantId}', { params: { path: { grantId: control.id } } });
    expect(revoked.response.status).toBe(204);
    expect(await statusesWith([renewed.access_token, control.tokens.access_token])).toEqual([401, 401]);
    expect((await acme.api.GET('/apps/v1/grants', {})).data!.items).toEqual([]);
  });
});

describe('API clients racing their token requests', () => {
  /**
   * `count` clients of acme. Made through the API, their secrets are hashed at the service's cost,
   * which a token request spends verifying one (as long as a rotation spends hashing the new one);
   * `quick`: at the test suite's (test/support/secrets.ts).
   */
  const clients = (count: number, quick = false) =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        if (quick)
          return createClient(
            server.db,
            server.clock,
            { companyId: acme.companyId, scopes: ['statements:read'] },
            undefined,
            quickHash,
          );
        const { data } = await acme.api.POST('/clients/v1/clients', {
          body: { name: `racer ${i}`, scopes: ['statements:read'] },
        });
        return data!;
      }),
    );

  const tokenRequest = (client: { clientId: string; clientSecret: string }) => async () => {
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    });
    return { status: res.status, body: (await res.json()) as { access_token?: string; error?: string } };
  };

  /** Races each client's token request against `revoke`; answers the tokens obtained. */
  async function raced(revoke: (clientId: string) => Promise<{ response: Response }>, quick = false) {
    const tokens: string[] = [];
    for (const [i, client] of (await clients(RACES, quick)).entries()) {
      const [asked, revoked] = await race(i, tokenRequest(client), () => revoke(client.clientId));
      expect(revoked.response.status).toBeLessThan(300);
      if (asked.status === 200) tokens.push(asked.body.access_token!);
      else expect({ status: asked.status, error: asked.body.error }).toEqual({ status: 401, error: 'invalid_client' });
    }
    return tokens;
  }

  it('when a client is deleted while it asks for a token, then no token it obtained works', async () => {
    // A deletion hashes nothing: secrets hashed at the suite's cost keep the token request as short.
    const tokens = await raced(
      (clientId) => acme.api.DELETE('/clients/v1/clients/{clientId}', { params: { path: { clientId } } }),
      true,
    );
    expect(await statusesWith(tokens)).toEqual(tokens.map(() => 401));
  });

  it('when a client secret is rotated without a grace while the old secret asks for a token, then no token it obtained works', async () => {
    const tokens = await raced((clientId) =>
      acme.api.POST('/clients/v1/clients/{clientId}/rotate-secret', { params: { path: { clientId } } }),
    );
    expect(await statusesWith(tokens)).toEqual(tokens.map(() => 401));
  });
});
