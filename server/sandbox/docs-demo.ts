// The sandbox's docs page shows samples that run as pasted: the example ids in their paths are
// replaced, when the page is served, by ids of the demo company that `finance serve` creates on an
// empty database (the first company of the store). Production pages keep the contract's examples.
import type { Db } from '../db/database.js';
import { SHIFT_DAYS, sampleEdits } from '../docs-samples.js';
import { clockOffset, companyTimeZone } from '../areas/auth/public.js';
import { daysBetween, localDate } from '../lib/time.js';
import type { Clock } from '../lib/clock.js';
import { asInPageScript, consoleOperations } from '../docs.js';
import { consoleJson } from '../docs-console.js';

/**
 * The ids of one company's data, by the path prefix that ends with the parameter
 * (`/cost-centers/v1/cost-centers/{id}`), by `path?name` for a query parameter, or by `body.<field>`
 * for a body field that names a resource; and by SHIFT_DAYS, how many days the contract's example
 * dates move to fall where they do relative to the company's today.
 */
type DemoIds = Record<string, string | number>;

const first = async <T>(query: { executeTakeFirst(): Promise<T | undefined> }) => query.executeTakeFirst();

/** The day the contract's examples are written from: a VCN's check-in 14 days ahead, a clock advanced to the year's end. */
const EXAMPLES_DAY = '2026-11-26';

/** The demo company's ids for the operations' path parameters; empty when the store has no company. */
export async function demoIds(db: Db, now: Date): Promise<DemoIds> {
  const company = await first(db.selectFrom('companies').select('id').orderBy('created_at').orderBy('id').limit(1));
  if (!company) return {};
  const c = company.id;
  // The latest transaction of a status: a processed one (2) is what a receipt sample can be asked of,
  // a pending one (3) what the sandbox's removal samples drop.
  const latest = (table: 'banking_transactions' | 'credit_card_transactions', status: 2 | 3) =>
    first(
      db
        .selectFrom(table)
        .select('id')
        .where('company_id', '=', c)
        .where('status', '=', status)
        .orderBy('id', 'desc')
        .limit(1),
    );
  // CUSTOM (type 2) before DEFAULT: a DEFAULT supplier or category cannot be renamed or deleted.
  const customFirst = (table: 'suppliers' | 'categories') =>
    first(
      db.selectFrom(table).select('id').where('company_id', '=', c).orderBy('type_id', 'desc').orderBy('id').limit(1),
    );
  const [banking, card, costCenter, supplier, category, user, bill, vcn, event, role, endpoint, invite, attachment] =
    await Promise.all([
      latest('banking_transactions', 2),
      latest('credit_card_transactions', 2),
      first(db.selectFrom('cost_centers').select('id').where('company_id', '=', c).orderBy('name').limit(1)),
      customFirst('suppliers'),
      customFirst('categories'),
      first(
        db
          .selectFrom('users')
          .innerJoin('roles', 'roles.id', 'users.role_id')
          .select('users.id')
          .where('users.company_id', '=', c)
          .where('users.active', '=', 1)
          .where('roles.profile', '=', 'EMPLOYEE')
          .orderBy('users.id')
          .limit(1),
      ),
      first(db.selectFrom('bills').select('due_date').where('company_id', '=', c).orderBy('due_date', 'desc').limit(1)),
      first(db.selectFrom('vcns').select('id').where('company_id', '=', c).orderBy('id', 'desc').limit(1)),
      first(db.selectFrom('events').select('id').where('company_id', '=', c).orderBy('id', 'desc').limit(1)),
      first(
        db
          .selectFrom('roles')
          .select('id')
          .where('company_id', '=', c)
          .where('profile', '=', 'EMPLOYEE')
          .orderBy('id')
          .limit(1),
      ),
      first(
        db
          .selectFrom('webhook_endpoints')
          .select('id')
          .where('company_id', '=', c)
          // An enabled one first; the demo company's own is disabled until someone gives it an address.
          .orderBy('status', 'desc')
          .orderBy('id')
          .limit(1),
      ),
      first(
        db
          .selectFrom('invites')
          .select('id')
          .where('company_id', '=', c)
          .where('status', '=', 'PENDING')
          .where('expires_at', '>', now.toISOString())
          .orderBy('created_at')
          .limit(1),
      ),
      first(
        db
          .selectFrom('attachments')
          .select('id')
          .where('company_id', '=', c)
          .where('status', '=', 'UPLOADED')
          .orderBy('created_at')
          .limit(1),
      ),
    ]);
  // A delivery of that endpoint; categories the batch delete can remove (CUSTOM, without establishments, not the one the samples annotate with).
  const [delivery, deletable, offset, timeZone, pendingBanking, pendingCard, corporateCard, apiClient, grant] =
    await Promise.all([
      endpoint &&
        first(
          db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('endpoint_id', '=', endpoint.id)
            .orderBy('id', 'desc')
            .limit(1),
        ),
      db
        .selectFrom('categories')
        .select('id')
        .where('company_id', '=', c)
        .where('type_id', '=', 2)
        .where('id', '!=', category?.id ?? -1)
        // Without establishments: deleting those asks for `moveTo`, which the sample does not send.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('establishments').select('id').whereRef('establishments.category_id', '=', 'categories.id'),
            ),
          ),
        )
        .orderBy('id', 'desc')
        .limit(2)
        .execute(),
      clockOffset(db, c),
      companyTimeZone(db, c),
      latest('banking_transactions', 3),
      latest('credit_card_transactions', 3),
      // An activated corporate card: the block sample blocks it, the unblock sample activates it again.
      first(
        db
          .selectFrom('cards')
          .select('id')
          .where('company_id', '=', c)
          .where('status', 'in', ['ACTIVATED', 'BLOCKED'])
          .orderBy('created_at')
          .orderBy('id')
          .limit(1),
      ),
      // An API client made through the API (never the one whose credentials the page shows), and an approved app.
      first(
        db
          .selectFrom('api_clients')
          .select('id')
          .where('company_id', '=', c)
          .where('created_by', 'is not', null)
          .where('revoked_at', 'is', null)
          .orderBy('created_at', 'desc')
          .limit(1),
      ),
      first(
        db
          .selectFrom('oauth_grants')
          .select('id')
          .where('company_id', '=', c)
          .where('revoked_at', 'is', null)
          .orderBy('created_at', 'desc')
          .limit(1),
      ),
    ]);
  const ids: DemoIds = {};
  const set = (prefix: string, value: string | number | undefined) => {
    if (value !== undefined) ids[prefix] = value;
  };
  set('/statements/v1/banking/{transactionId}', banking?.id);
  set('/statements/v1/credit-card/{transactionId}', card?.id);
  set('/sandbox/v1/banking-transactions/{transactionId}', pendingBanking?.id);
  set('/sandbox/v1/credit-card-transactions/{transactionId}', pendingCard?.id);
  set('/cost-centers/v1/cost-centers/{id}', costCenter?.id);
  set('/credit-cards/v1/{id}', corporateCard?.id);
  set('/suppliers/v1/suppliers/{id}', supplier?.id);
  set('/categories/v1/categories/{id}', category?.id);
  set('/users/v1/users/{userId}', user?.id);
  set('/credit-cards/v1/bills/{dueDate}', bill?.due_date);
  set('/credit-cards/v1/vcns/{vcnId}', vcn?.id);
  set('/events/v1/events/{eventId}', event?.id);
  set('/sandbox/v1/vcns/{vcnId}', vcn?.id);
  set('/webhooks/v1/endpoints/{endpointId}', endpoint?.id);
  set('/webhooks/v1/endpoints/{endpointId}/deliveries/{deliveryId}', delivery?.id);
  set('/sandbox/v1/invites/{inviteId}', invite?.id);
  set('/attachments/v1/content/{attachmentId}', attachment?.id);
  set('/clients/v1/clients/{clientId}', apiClient?.id);
  set('/apps/v1/grants/{grantId}', grant?.id);
  if (deletable.length === 2) set('/categories/v1/categories?ids', deletable.map((row) => row.id).join(','));
  const today = localDate(new Date(now.getTime() + offset), timeZone ?? 'America/Sao_Paulo');
  set(SHIFT_DAYS, daysBetween(EXAMPLES_DAY, today));
  // Body fields that name a resource: the PATCH samples annotate with the demo's cost center and
  // category, the attachment sample attaches to its transaction, the user samples give a role it has.
  set('body.costCenterId', costCenter?.id);
  set('body.categoryId', category?.id);
  set('body.transactionId', banking?.id);
  set('body.cardTransactionId', card?.id);
  set('body.roleId', role?.id);
  // The accounting sync sample posts one banking transaction and fails another.
  set('body.successful.id', banking?.id);
  set('body.failed.id', pendingBanking?.id);
  return ids;
}

/** How long the demo ids are reused before they are read again (a sample's resource may be deleted). */
const FRESH_MS = 30_000;

/**
 * The docs page's samples and Try-it console with the demo company's ids: a function from the built page to the page
 * as served. The page holds each sample's source as a JSON string; each is replaced whole.
 */
export function demoSamples(db: Db, bundle: Record<string, unknown>, clock: Clock) {
  let cached: { at: number; edits: Array<[string, string]> } | undefined;
  return async (): Promise<{ key: string; apply: (html: string) => string }> => {
    if (!cached || Date.now() - cached.at > FRESH_MS) {
      const ids = await demoIds(db, clock.now());
      const edits = sampleEdits(bundle, ids).map(([from, to]): [string, string] => [
        JSON.stringify(from).slice(1, -1),
        JSON.stringify(to).slice(1, -1),
      ]);
      // The Try-it console starts from the same ids.
      const [before, after] = [consoleOperations(bundle), consoleOperations(bundle, ids)].map((ops) =>
        asInPageScript(consoleJson(ops)),
      );
      if (before !== after) edits.push([before!, after!]);
      cached = { at: Date.now(), edits };
    }
    const { edits } = cached;
    return {
      key: edits.map(([, to]) => to).join('\n'),
      apply: (html) => edits.reduce((page, [from, to]) => page.split(from).join(to), html),
    };
  };
}
