// The sandbox's demo company has approved one app, so the docs' samples of the grants have a grant to
// read and revoke: registered, used and approved as the consent page would (its code never exchanged).
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { writeTransaction } from '../../db/transaction.js';
import { markAppUsed, registerApp } from './registration.js';
import { createGrantWithCode } from './grants.js';

const REDIRECT = 'http://127.0.0.1:8765/callback';

export async function approveDemoApp(db: Db, clock: Clock, companyId: string): Promise<void> {
  const app = await registerApp(db, clock, {
    client_name: 'Ledgerly Contabilidade (demo app)',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });
  await writeTransaction(db, async (trx) => {
    await markAppUsed(trx, app.client_id);
    await createGrantWithCode(trx, clock, {
      companyId,
      appId: app.client_id,
      scopes: ['statements:read'],
      resource: undefined,
      redirectUri: REDIRECT,
      redirectUriImplied: false,
      codeChallenge: 'demo-app-approved-without-a-code-exchange-000',
    });
  });
}
