// The sandbox's test helpers and test clock, typed: `await finance.sandbox.clock.advance('2027-01-01T00:00:00Z')`.
// Each call answers the operation's body, or throws its FinanceApiError (as `unwrap`). The paths
// exist only outside production (there they answer 404).
import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { unwrap } from './errors.js';

type Schemas = components['schemas'];
type Banking = Schemas['SandboxBankingTransactionCreate'];
type CreditCard = Schemas['SandboxCreditCardTransactionCreate'];
/** Options of every write: an `Idempotency-Key` of your own (one is made per call otherwise). */
export interface SandboxCallOptions {
  idempotencyKey?: string;
}

const headersOf = (options: SandboxCallOptions = {}) =>
  options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : undefined;

export function sandboxHelpers(client: Client<paths>) {
  const card =
    (action: 'block' | 'unblock' | 'cancel') =>
    async (vcnId: string, options?: SandboxCallOptions): Promise<Schemas['VcnDetails']> =>
      unwrap(
        client.POST(`/sandbox/v1/vcns/{vcnId}/${action}`, {
          params: { path: { vcnId } },
          headers: headersOf(options),
        }),
      );
  return {
    /** A banking transaction arrives: answers it as the banking statement shows it. */
    createBankingTransaction: async (body: Banking, options?: SandboxCallOptions) =>
      (await unwrap(
        client.POST('/sandbox/v1/banking-transactions', { body, headers: headersOf(options) }),
      )) as Schemas['BankingTransaction'],
    /** Up to 1,000 banking transactions arrive, all or none: answers them in order. */
    createBankingTransactions: async (transactions: Banking[], options?: SandboxCallOptions) =>
      (
        (await unwrap(
          client.POST('/sandbox/v1/banking-transactions', { body: { transactions }, headers: headersOf(options) }),
        )) as Schemas['SandboxBankingTransactions']
      ).transactions,
    /** A credit-card transaction arrives: answers it as the credit-card statement shows it. */
    createCreditCardTransaction: async (body: CreditCard, options?: SandboxCallOptions) =>
      (await unwrap(
        client.POST('/sandbox/v1/credit-card-transactions', { body, headers: headersOf(options) }),
      )) as Schemas['CreditCardTransaction'],
    /** Up to 1,000 credit-card transactions arrive, all or none: answers them in order. */
    createCreditCardTransactions: async (transactions: CreditCard[], options?: SandboxCallOptions) =>
      (
        (await unwrap(
          client.POST('/sandbox/v1/credit-card-transactions', { body: { transactions }, headers: headersOf(options) }),
        )) as Schemas['SandboxCreditCardTransactions']
      ).transactions,
    /** A purchase with a virtual card: approved, or declined with its reason. */
    authorizeVcnPurchase: async (
      vcnId: string,
      body: Schemas['SandboxAuthorizationCreate'],
      options?: SandboxCallOptions,
    ): Promise<Schemas['SandboxAuthorization']> =>
      unwrap(
        client.POST('/sandbox/v1/vcns/{vcnId}/authorizations', {
          params: { path: { vcnId } },
          body,
          headers: headersOf(options),
        }),
      ),
    blockVcn: card('block'),
    unblockVcn: card('unblock'),
    cancelVcn: card('cancel'),
    /** The invitee accepts: answers the new user. */
    acceptInvite: async (
      inviteId: string,
      body: Schemas['SandboxInviteAccept'] = {},
      options?: SandboxCallOptions,
    ): Promise<Schemas['User']> =>
      unwrap(
        client.POST('/sandbox/v1/invites/{inviteId}/accept', {
          params: { path: { inviteId } },
          body,
          headers: headersOf(options),
        }),
      ),
    clock: {
      /** The company's current instant. */
      get: async (): Promise<string> => (await unwrap(client.GET('/sandbox/v1/clock'))).now,
      /** Moves the company's clock forward to `to`; answers the new instant. */
      advance: async (to: string | Date, options?: SandboxCallOptions): Promise<string> =>
        (
          await unwrap(
            client.POST('/sandbox/v1/clock/advance', {
              body: { to: typeof to === 'string' ? to : to.toISOString() },
              headers: headersOf(options),
            }),
          )
        ).now,
      /** Puts the company's clock back on the real time; answers the new instant. */
      reset: async (options?: SandboxCallOptions): Promise<string> =>
        (await unwrap(client.POST('/sandbox/v1/clock/reset', { headers: headersOf(options) }))).now,
    },
  };
}

export type SandboxHelpers = ReturnType<typeof sandboxHelpers>;
