// The contract index: the internal bundle read once into what every part of the server asks of it —
// the operations (matcher, scopes, media types, numeric parameters, paging limits, error bodies),
// the schemas the validators compile, the webhook examples. Nothing else walks the bundle.
import { loadBundle, resolveRef, type Json } from './bundle.js';
import { matcher, type Match } from './match.js';
import { readOperations, type ContractOperation, type ErrorBody } from './operations.js';
import { validatorSpec } from './validator-spec.js';
import { withoutSandbox } from './sandbox.js';

export type { ContractOperation, ErrorBody, LimitBounds } from './operations.js';
export type { Match } from './match.js';
export { loadBundle } from './bundle.js';

export interface ContractIndex {
  operations: readonly ContractOperation[];
  operation(operationId: string): ContractOperation | undefined;
  /** The request's operation, by method and path (undecoded, as sent). */
  match(method: string, path: string): Match;
  /** The error body of a status for an operation; the common body without one. */
  errorBody(operation: ContractOperation | undefined, status: number): ErrorBody;
  /** A fresh copy of the bundle prepared for the validators (see validator-spec.ts). */
  validatorSpec(): Json;
  /** A schema node with its `$ref` followed (to a node of the same bundle). */
  resolve(node: unknown): Json;
  /** The example object of a webhook event type (the `webhooks` section), or undefined. */
  eventExample(type: string): Record<string, unknown> | undefined;
}

/** The tag of the virtual-card operations, unknown paths while cards are off (`VCN_ENABLED=false`). */
const CARDS_TAG = 'Virtual cards';

function buildIndex(bundle: Json, cards: boolean): ContractIndex {
  const operations = readOperations(bundle).filter((op) => cards || !op.tags.includes(CARDS_TAG));
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const text = JSON.stringify(bundle);
  return {
    operations,
    operation: (operationId) => byId.get(operationId),
    match: matcher(operations),
    errorBody: (operation, status) =>
      operation ? (operation.errorBodies.get(status) ?? operation.fallbackErrorBody) : 'common',
    validatorSpec: () => validatorSpec(JSON.parse(text) as Json),
    resolve: (node) => resolveRef(bundle, node),
    eventExample: (type) => eventExample(bundle, type),
  };
}

function eventExample(bundle: Json, type: string): Record<string, unknown> | undefined {
  for (const item of Object.values((bundle.webhooks ?? {}) as Record<string, Json>)) {
    const body = resolveRef(bundle, (item.post as Json | undefined)?.requestBody);
    const media = (body.content as Record<string, Json> | undefined)?.['application/json'];
    const schema = resolveRef(bundle, media?.schema) as { allOf?: Json[] };
    const types = (schema.allOf ?? []).map((part) => resolveRef(bundle, part)) as Array<{
      properties?: { type?: { enum?: string[] } };
    }>;
    if (types.some((part) => part.properties?.type?.enum?.includes(type)))
      return structuredClone((media!.example as { data: { object: Record<string, unknown> } }).data.object);
  }
  return undefined;
}

const indexes = new Map<string, ContractIndex>();

/**
 * The index of the internal bundle (every operation the server serves), built on first use; without
 * the sandbox (`sandbox: false`, production) its /sandbox/ operations are not in it, without cards
 * (`cards: false`) its virtual-card operations: unknown paths, 404 before any other check.
 */
export function contract({ sandbox = true, cards = true }: { sandbox?: boolean; cards?: boolean } = {}): ContractIndex {
  const key = `${sandbox}/${cards}`;
  let index = indexes.get(key);
  if (!index) {
    const bundle = loadBundle('internal');
    index = buildIndex(sandbox ? bundle : withoutSandbox(bundle), cards);
    indexes.set(key, index);
  }
  return index;
}
