// Every operation of the contract, by operationId: its handler (`satisfies Handlers` makes a missing
// handler a compile error) and, for the few that have one, its preflight (server/kit/handler.ts).
import type { Handler, Handlers, Preflights } from './kit/handler.js';
import { handlers as audit } from './areas/audit/handlers.js';
import { handlers as auth } from './areas/auth/handlers.js';
import { handlers as clients } from './areas/auth/client-handlers.js';
import { handlers as apps } from './areas/apps/handlers.js';
import { exchangeCode, exchangeRefreshToken } from './areas/apps/public.js';
import { handlers as directory } from './areas/directory/handlers.js';
import { handlers as users } from './areas/users/handlers.js';
import { handlers as statements } from './areas/statements/handlers.js';
import { accountingHandlers as accounting } from './areas/statements/accounting-handlers.js';
import { summaryHandlers as summaries } from './areas/statements/summary-handlers.js';
import { handlers as attachments } from './areas/statements/attachments/handlers.js';
import { preflights as uploads } from './areas/statements/attachments/upload-gate.js';
import { handlers as accounts } from './areas/statements/accounts/handlers.js';
import { handlers as bills } from './areas/statements/bills/handlers.js';
import { handlers as cards } from './areas/statements/cards/handlers.js';
import { handlers as exports } from './areas/statements/exports/handlers.js';
import { handlers as vcn } from './areas/vcn/handlers.js';
import { handlers as events } from './areas/events/handlers.js';
import { handlers as webhooks } from './areas/webhooks/handlers.js';
import { handlers as sandbox } from './sandbox/handlers.js';

/** The token endpoint: client credentials (auth area), authorization code and refresh (apps area). */
const byGrantType: Handler<'createToken'> = (input, ctx) =>
  input.body.grant_type === 'authorization_code'
    ? exchangeCode(input.body, ctx)
    : input.body.grant_type === 'refresh_token'
      ? exchangeRefreshToken(input.body, ctx)
      : auth.createToken(input, ctx);

export const operations = {
  ...audit,
  ...auth,
  ...clients,
  createToken: byGrantType,
  createAccessToken: ({ params, query, body }, ctx) => byGrantType({ params, query, body }, ctx),
  ...apps,
  ...directory,
  ...users,
  ...statements,
  ...accounting,
  ...summaries,
  ...attachments,
  ...accounts,
  ...bills,
  ...cards,
  ...exports,
  ...vcn,
  ...events,
  ...webhooks,
  ...sandbox,
} satisfies Handlers;

/** The operations' own checks before the body is read. */
export const preflights: Preflights = { ...uploads };
