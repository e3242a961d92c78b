// The bearer check `/mcp` uses: the API's own access tokens (POST /oauth/token: a client's, or an
// approved app's from the authorization-code grant), and the company they act for.
import type { Db } from '../db/database.js';
import { type Clock, offsetClock } from '../lib/clock.js';
import { formatInstant, localDate } from '../lib/time.js';
import { companyNameAndZone, lookupToken } from '../areas/auth/public.js';
import type { BearerCheck } from './http.js';

export const apiTokens =
  (db: Db, clock: Clock): BearerCheck =>
  async (token) => {
    const { grant } = await lookupToken(db, clock, token);
    if (!grant) return undefined;
    const companyClock = offsetClock(clock, grant.clockOffsetMs);
    return {
      auth: { ...grant, companyClock },
      company: async () => {
        const company = await companyNameAndZone(db, grant.companyId);
        const timeZone = company?.timeZone ?? grant.timeZone;
        const now = companyClock.now();
        return {
          name: company?.name,
          companyId: grant.companyId,
          timeZone,
          today: localDate(now, timeZone),
          now: formatInstant(now, timeZone),
          scopes: [...grant.scopes].sort(),
        };
      },
    };
  };
