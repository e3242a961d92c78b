// The typed shape of an operation handler, derived from the generated contract types.
// server/operations.ts combines every area's handlers into one map keyed by operationId;
// an operation of the contract without a handler is a compile error there.
import type { Request, Response } from 'express';
import type { Kysely } from 'kysely';
import type { operations } from '../../generated/openapi.js';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../config.js';
import type { CardIssuer } from './card-issuer.js';
import type { ContractIndex } from '../contract/index.js';
import type { Kept } from '../db/change-signals.js';

/** Operations the server answers; `receive…` are the webhook payloads it sends (the contract's `webhooks`). */
export type OperationId = Exclude<keyof operations, `receive${string}`>;

/** Operations callable without an access token. */
type PublicOperationId =
  | 'createToken'
  | 'createAccessToken'
  | 'registerOAuthClient'
  | 'revokeOAuthToken'
  | 'introspectOAuthToken'
  | 'downloadBankingTransactionReceipt'
  | 'uploadAttachmentContent';

type Part<K extends OperationId, P extends 'path' | 'query'> = operations[K]['parameters'] extends {
  [X in P]?: infer T;
}
  ? undefined extends T
    ? Exclude<T, undefined> | Record<string, never>
    : T
  : never;
type JsonOf<T> = T extends { content: { 'application/json': infer B } }
  ? B
  : T extends { content: { 'application/x-www-form-urlencoded': infer F } }
    ? F
    : T extends { content: infer C }
      ? C[keyof C]
      : undefined;
type BodyOf<K extends OperationId> = operations[K] extends { requestBody?: infer RB }
  ? JsonOf<NonNullable<RB>>
  : undefined;

/** The validated request: path parameters, query (coerced to the contract's types) and body. */
export interface Input<K extends OperationId> {
  params: Part<K, 'path'>;
  query: Part<K, 'query'>;
  body: BodyOf<K>;
}

type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204 | 302 | 303 | 307 | 308>;

/**
 * What a handler answers. JSON responses are typed by the contract; `raw` sends bytes
 * (PDFs, uploaded files, HTML) with their content type; `stream` writes a body of any length.
 */
type Reply<K extends OperationId> = {
  [S in SuccessStatus<K>]:
    | (Responses<K>[S] extends { content: { 'application/json': infer B } }
        ? { status: S; body: B; headers?: Record<string, string> }
        : { status: S; body?: undefined; headers?: Record<string, string> })
    | { status: S; raw: Buffer | Uint8Array; contentType: string; headers?: Record<string, string> }
    | { status: S; stream: StreamBody; contentType: string; headers?: Record<string, string> };
}[SuccessStatus<K>];

/**
 * A body written by the handler after the status and headers are sent (statement exports). It
 * must never reject: a failure once bytes are out can only end the response early (`res.destroy`).
 */
export type StreamBody = (res: Response) => Promise<void>;

/** Who is calling: set by the auth middleware from the access token. */
export interface AuthContext {
  companyId: string;
  /** The API client (its public `clientId`) the token was issued to. */
  clientId: string;
  scopes: ReadonlySet<string>;
  /** IANA time zone of the company: calendar dates are days in this zone. */
  timeZone: string;
  /**
   * The company's clock: business rules (card windows and expiry, bills, invite expiry, event times)
   * read it. Wall time until the sandbox moves it (`/sandbox/v1/clock`); security clocks (tokens,
   * signed URLs, idempotency, rate limits) read `clock`, never this.
   */
  companyClock: Clock;
  /** How far `companyClock` runs ahead of wall time, as the token's company row said (a request's). */
  clockOffsetMs?: number;
}

export interface Services {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  /** The card processor behind the virtual-card operations. */
  issuer: CardIssuer;
  /** The contract the app serves (its operations' parameters: list limits). */
  index: ContractIndex;
  /** Reads kept between requests while the store's changes are heard (PostgreSQL: server/db/change-signals.ts). */
  kept?: KeptReads;
}

export interface KeptReads {
  /** Token lookups by digest (the auth store's rows). */
  tokens: Kept<unknown>;
  /** The statements' data version by company (the statement lists' and feeds' ETags). */
  statementVersions: Kept<string>;
}

/** Who made a change, as its event records it: the request (`X-Request-Id`) and the API client whose token it carried. */
export interface Actor {
  requestId: string | null;
  clientId: string | null;
  /**
   * The company clock's offset the request read with its token (absent outside a request): the
   * event log takes an event's wall time from it, the offset its `now` was read with, rather than
   * reading the company again.
   */
  clockOffsetMs?: number;
}

/** A change made outside any request (ingestion, expiry, the command line). */
export const PLATFORM: Actor = { requestId: null, clientId: null };

export interface HandlerContext extends Services {
  auth: AuthContext;
  requestId: string;
  /** The request and its API client, for the events the handler's changes record. */
  actor: Actor;
  req: Request;
  res: Response;
  /** Adds fields to the request's access log line (an export's filters and rows, read when it ends). */
  logFields(fields: Record<string, unknown>): void;
}

/**
 * An operation's own check before its body is read (a signed upload URL): throws the ApiError that
 * refuses the request. Declared beside the operation's handlers (`preflights`), run by its chain
 * after authentication and the media-type check.
 */
export type Preflight = (req: Request, res: Response, params: Record<string, string>) => Promise<void>;

export type Preflights = { [K in OperationId]?: (services: Services) => Preflight };

type PublicHandlerContext = Omit<HandlerContext, 'auth'>;

export type Handler<K extends OperationId> = (
  input: Input<K>,
  ctx: K extends PublicOperationId ? PublicHandlerContext : HandlerContext,
) => Promise<Reply<K>>;

export type Handlers = { [K in OperationId]: Handler<K> };

/** Lets an area declare its handlers with full typing: `export const handlers = defineHandlers({...})`. */
export const defineHandlers = <T extends Partial<Handlers>>(
  handlers: T & { [K in Exclude<keyof T, OperationId>]: never },
) => handlers;
