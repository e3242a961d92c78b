// Conditional GETs (RFC 9110 §13.1.2, DESIGN §11): every GET answer carries an `ETag` and
// `Cache-Control: private, no-cache`, and `If-None-Match` with a current tag gets 304 without a body.
//  - The statements' lists, change feeds and exports follow the company's statement version
//    (server/areas/statements/versions.ts, advanced in the transaction of every write they show): their
//    weak tag is that version with everything else that shapes the answer (the company, the
//    operation, the query, the company's time zone; no request header changes their 200), read
//    before the handler, so a 304 runs neither the page's query nor its serialization. When the
//    request carries `If-None-Match`, the tag is compared right after authentication and the rate
//    limit (`notModifiedEarly`), before the body parsers and the contract's validation: the tag
//    covers the exact query, so only a request byte for byte like one answered 200 can match.
//    A request under a tag this process answered before gets those bytes again (answer-cache.ts).
//  - Every other answer's tag is derived from what it sends (an item's is `itemETag`, the tag the
//    item's `If-Match` compares): the handler runs, the body is not sent.
import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import { statementDataVersion } from '../../areas/statements/public.js';
import type { AuthContext, Services } from '../../kit/handler.js';
import type { ContractOperation } from '../../contract/index.js';
import type { Step } from '../pipeline/context.js';
import { tagMatches } from './etag.js';

const VERSIONED = new Set([
  'listBankingTransactions',
  'listCreditCardTransactions',
  'listBankingTransactionChanges',
  'listCreditCardTransactionChanges',
  'downloadBankingExport',
  'downloadCreditCardExport',
]);

/** The tag's digest: SHA-256 of the data (the parts, each followed by a NUL), its first 27 base64url characters. */
const digest = (data: string | Buffer) => hash('sha256', data, 'base64url').slice(0, 27);
const parts = (...values: string[]) => `${values.join('\0')}\0`;
const NUL = new Uint8Array([0]);

const isRead = (req: Request) => req.method === 'GET' || req.method === 'HEAD';

/** Does the operation declare `If-None-Match` (every GET but the card reveal: `no-store`)? */
export const declaresIfNoneMatch = (operation: ContractOperation) =>
  (operation.paramNames.header ?? []).includes('If-None-Match');

/** The weak tag of a versioned operation's answer, from the company's statement version; undefined for other operations. */
export async function versionedTag(
  { db, kept }: Pick<Services, 'db' | 'kept'>,
  operationId: string,
  req: Request,
  auth: AuthContext | undefined,
): Promise<string | undefined> {
  if (!auth || !VERSIONED.has(operationId)) return undefined;
  const version = await statementDataVersion(db, auth.companyId, kept?.statementVersions);
  const query = req.originalUrl.slice(req.originalUrl.indexOf('?') + 1 || req.originalUrl.length);
  return `W/"${digest(parts(operationId, auth.companyId, version, auth.timeZone, query))}"`;
}

/**
 * The versioned operations' 304, before the body is read and the request validated (see above): the
 * step of a versioned read that declares `If-None-Match`; none for other operations.
 */
export function notModifiedEarly(
  operation: ContractOperation,
  services: Pick<Services, 'db' | 'kept'>,
): Step | undefined {
  if (!VERSIONED.has(operation.operationId) || !declaresIfNoneMatch(operation)) return undefined;
  return async (req, res, context) => {
    if (req.headers['if-none-match'] === undefined || !isRead(req)) return;
    const tag = await versionedTag(services, operation.operationId, req, context.auth);
    if (tag === undefined) return;
    context.versionedTag = tag;
    answeredNotModified(req, res, tag);
  };
}

/** The strong tag of an answer of bytes (a JSON answer's is `textETag` of its text, etag.ts). */
export const rawTag = (raw: Buffer | Uint8Array): string => `"${digest(Buffer.concat([raw, NUL]))}"`;

/**
 * Answers 304 without a body when `If-None-Match` holds the tag (true then). The validator headers go
 * with the 304, and with the answer to come when `answering` (a 200 the handler gave; not before it
 * ran: an error must not carry them).
 */
export function answeredNotModified(req: Request, res: Response, tag: string, answering = false): boolean {
  const header = req.get('if-none-match');
  const matches = header !== undefined && tagMatches(header, tag, 'weak');
  if (matches || answering) {
    res.setHeader('ETag', tag);
    res.setHeader('Cache-Control', 'private, no-cache');
  }
  if (!matches) return false;
  res.status(304).end();
  return true;
}
