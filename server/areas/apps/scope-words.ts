// Each scope in plain words, as the consent page names what an app asks for.
export const SCOPE_WORDS: Record<string, string> = {
  'statements:read': 'See your bank and card statements, receipts, attachments, balances and bills',
  'statements:write': 'Annotate and reconcile your statement transactions, and attach files to them',
  'directory:read': 'See your cost centers, suppliers and categories',
  'directory:write': 'Create, rename and delete your cost centers, suppliers and categories',
  'users:read': 'See your users and roles',
  'users:write': 'Change and remove your users, and invite new ones',
  'vcn:read': 'See your virtual cards (without card numbers) and their purchases',
  'vcn:write': 'Issue and top up virtual cards',
  'vcn:reveal': 'Reveal virtual-card numbers and security codes',
  'events:read': 'Read the log of changes to your data',
  'webhooks:read': 'See your webhook endpoints and their deliveries',
  'webhooks:write': 'Register, change and delete webhook endpoints',
  'apps:manage': 'Make approval codes, and see and revoke the apps you approved',
  'sandbox:write': 'Use the sandbox test helpers and test clock',
};
