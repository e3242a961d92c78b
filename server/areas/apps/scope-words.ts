// Each scope in plain words, as the consent page names what an app asks for. Typed by the scope list,
// so a new scope without words does not compile. The first-party scopes never reach the consent page
// (an app cannot ask for them), but are worded alike.
import type { ALL_SCOPES } from '../auth/public.js';

export const SCOPE_WORDS: Record<(typeof ALL_SCOPES)[number], string> = {
  'statements:read': 'See your bank and card statements, receipts, attachments, balances and bills',
  'statements:write': 'Annotate and reconcile your statement transactions, and attach files to them',
  'directory:read': 'See your cost centers, suppliers and categories',
  'directory:write': 'Create, rename and delete your cost centers, suppliers and categories',
  'users:read': 'See your users and roles',
  'users:write': 'Change and remove your users, and invite new ones',
  'cards:read': 'See your corporate cards',
  'cards:write': 'Block and unblock your corporate cards',
  'vcn:read': 'See your virtual cards (without card numbers) and their purchases',
  'vcn:write': 'Issue and top up virtual cards',
  'vcn:reveal': 'Reveal virtual-card numbers and security codes',
  'events:read': 'Read the log of changes to your data',
  'webhooks:read': 'See your webhook endpoints and their deliveries',
  'webhooks:write': 'Register, change and delete webhook endpoints',
  'apps:manage': 'Make approval codes, and see and revoke the apps you approved',
  'sandbox:write': 'Use the sandbox test helpers and test clock',
  'audit:read': 'Read your audit log: who changed your credentials, cards and apps, and from where',
  'clients:manage': 'Create, rotate and revoke your API clients and their secrets',
};
