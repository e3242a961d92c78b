// The bearer check `/mcp` uses: the API's own access tokens (POST /oauth/token: a client's, or an
// approved app's from the authorization-code grant), with their scopes.
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { lookupToken } from '../areas/auth/public.js';
import type { BearerCheck } from './http.js';

export const apiTokens =
  (db: Db, clock: Clock): BearerCheck =>
  async (token) => {
    const found = await lookupToken(db, clock, token);
    return found.grant ? { scopes: found.grant.scopes } : undefined;
  };
