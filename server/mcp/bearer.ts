// The bearer check `/mcp` uses now: the API's own access tokens (POST /oauth/token), with their scopes.
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
