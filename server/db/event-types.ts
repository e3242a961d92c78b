// The event types: `<object>.<verb>`. An event is written in the transaction of the change it records.
export const EVENT_TYPES = [
  'banking_transaction.updated', 'banking_transaction.reconciled',
  'credit_card_transaction.updated', 'credit_card_transaction.reconciled',
  'attachment.created',
  'cost_center.created', 'cost_center.updated', 'cost_center.deleted',
  'supplier.created', 'supplier.updated', 'supplier.deleted',
  'category.created', 'category.updated', 'category.deleted',
  'user.updated', 'user.deleted',
  'invite.created', 'invite.accepted',
  'vcn.issued', 'vcn.updated', 'vcn.authorized', 'vcn.declined', 'vcn.blocked', 'vcn.unblocked', 'vcn.cancelled', 'vcn.expired',
  'statement.ingested',
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
