// The request's contract operation, found once, right after the request prelude (contract/match.ts):
// an unknown path is 404 and a known path with another method 405 with Allow, both before any
// credential check. The match is kept in the request's context (context.ts).
import { ApiError, badRequest } from '../../kit/errors.js';
import type { Match } from '../../contract/index.js';

const NOT_FOUND_MESSAGE = 'No such resource or operation';

/** The 404 of a path the contract does not have. */
export const unknownPath = () => new ApiError(404, NOT_FOUND_MESSAGE, [], {}, { reason: 'unknown_path' });

/** The refusal of a request that matched no operation: 405 with Allow, 400 for a malformed path, else 404. */
export function noOperation(found: Exclude<Match, { kind: 'operation' }>): ApiError {
  if (found.kind === 'method')
    return new ApiError(405, 'Method not allowed on this resource', [], { Allow: found.allow.join(', ') });
  if (found.kind === 'malformed') return badRequest('The path is not valid percent-encoding');
  return unknownPath();
}
