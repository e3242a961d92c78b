// What a tool's annotations say about its effect, from its operation. An assistant's client asks
// the user before a destructive call and may repeat an idempotent one, so the hints follow what the
// operation does, not its HTTP method alone:
// - a read (GET) is read-only;
// - a create (POST answering 201) only adds: not destructive, and each call adds another;
// - every other write changes or removes what exists (a PATCH of notes, a role, a webhook URL, a
//   reconciliation that cannot be undone, a block): destructive. A PATCH, PUT or DELETE sets a state,
//   so repeating it changes nothing more (idempotent); the other POSTs are listed below;
// - open world: the effect leaves this service (a webhook delivered to the endpoint's URL, a card
//   the card processor issues, an invitation sent to a person).

export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The POSTs that are no create: whether a repeat changes anything more, and whether they destroy. */
export const ACTIONS: Record<string, { idempotent: boolean; destructive: boolean }> = {
  // Blocking a blocked card (unblocking an active one) changes nothing and records nothing.
  blockCard: { idempotent: true, destructive: true },
  unblockCard: { idempotent: true, destructive: true },
  // The old secret stops working; each call makes another.
  rotateWebhookEndpointSecret: { idempotent: false, destructive: true },
  rotateApiClientSecret: { idempotent: false, destructive: true },
  // One more delivery attempt: nothing is changed or removed.
  retryWebhookDelivery: { idempotent: false, destructive: false },
  blockSandboxVcn: { idempotent: true, destructive: true },
  unblockSandboxVcn: { idempotent: true, destructive: true },
  cancelSandboxVcn: { idempotent: true, destructive: true },
  acceptSandboxInvite: { idempotent: true, destructive: true },
  // The company clock only moves forward.
  advanceSandboxClock: { idempotent: false, destructive: true },
  resetSandboxClock: { idempotent: true, destructive: true },
};

/** Operations whose effect reaches outside this service. */
const OPEN_WORLD = new Set([
  'createWebhookEndpoint',
  'updateWebhookEndpoint',
  'retryWebhookDelivery',
  'createVcn',
  'updateVcn',
  'createInvite',
]);

export function hintsOf(operationId: string, method: string, successStatus: string): ToolHints {
  const openWorldHint = OPEN_WORLD.has(operationId);
  if (method === 'GET') return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint };
  if (method === 'POST') {
    const action = ACTIONS[operationId];
    // A POST nobody described yet is taken at its worst: it may destroy, and a repeat may act again.
    const { idempotent, destructive } =
      action ??
      (successStatus === '201' ? { idempotent: false, destructive: false } : { idempotent: false, destructive: true });
    return { readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint };
  }
  return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint };
}
