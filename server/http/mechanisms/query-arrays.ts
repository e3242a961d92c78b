// Arrays in queries are comma-separated (`status=1,2`, the contract's `style: form, explode: false`).
// Some HTTP libraries send `status[]=1&status[]=2` by default; without this check the validator
// would answer with a misleading "must be integer" about a parameter the caller did send.
import type { Request } from 'express';
import { badRequest } from '../../kit/errors.js';

/** A deepObject parameter's member (`metadata[erp_id]=JE-1`, the contract's `style: deepObject`): not an array. */
const DEEP_OBJECT = /^metadata\[[^[\]]+\]$/;

/** Throws the 400 of a query holding bracketed parameters (`status[]=1`). */
export function rejectBracketedArrays(req: Request): void {
  if (!req.url.includes('?')) return;
  const bracketed = Object.keys(req.query as Record<string, unknown>).filter(
    (key) => key.includes('[') && !DEEP_OBJECT.test(key),
  );
  if (bracketed.length === 0) return;
  const names = [...new Set(bracketed.map((key) => key.slice(0, key.indexOf('['))))];
  const example = `${names[0]}=1,2`;
  throw badRequest(
    `Send arrays in the query comma-separated, as \`${example}\`; bracketed parameters (${bracketed.map((k) => `\`${k}\``).join(', ')}) are not understood`,
    names.map(
      (name) => `query.${name}: send the values comma-separated in one parameter (${name}=a,b), not as ${name}[]`,
    ),
    { param: names[0] },
  );
}
