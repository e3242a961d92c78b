// Which tools a session lists. Every tool of the contract costs the model its name, description and
// schema in each conversation (81 tools are about 250 KB), so a session starts with the tools a
// finance assistant needs — statements with search and summaries, reconciliation, the views of
// what is left to do, cards, the directory's names, users — and asks for more by group.

/** The default set, by tool name: about 20 tools, ~40 KB of tools/list. */
export const ESSENTIALS = new Set([
  'get_company_context',
  'list_banking_transactions',
  'get_banking_summary',
  'reconcile_banking_transaction',
  'list_credit_card_transactions',
  'get_credit_card_summary',
  'reconcile_credit_card_transaction',
  'list_unreconciled_transactions',
  'list_transactions_missing_receipts',
  'get_account_balance',
  'list_bills',
  'list_cards',
  'block_card',
  'unblock_card',
  'list_cost_centers',
  'list_categories',
  'list_users',
  'list_roles',
  'update_user',
]);

/** The contract's tags, gathered into the groups a session may ask for. */
const GROUP_OF_TAG: Record<string, string> = {
  Statements: 'statements',
  Attachments: 'statements',
  Accounts: 'statements',
  Bills: 'statements',
  'Cost centers': 'directory',
  Suppliers: 'directory',
  Categories: 'directory',
  Users: 'users',
  Cards: 'cards',
  'Virtual cards': 'cards',
  Events: 'events',
  Webhooks: 'webhooks',
  'API clients': 'admin',
  Audit: 'admin',
  Apps: 'admin',
  Sandbox: 'sandbox',
};

/** A tag not gathered above is a group of its own, named like it (`Payment links` → `payment-links`). */
export const groupOf = (tag: string) => GROUP_OF_TAG[tag] ?? tag.toLowerCase().replace(/\s+/g, '-');
