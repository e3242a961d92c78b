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

/** A NUL (`%00`) in a query value: no parameter's value can hold one (PostgreSQL's text holds none). */
const NUL_IN_QUERY = /%00/i;

/** Throws the 400 of a query whose values hold a NUL character, naming the parameter. */
export function rejectNulInQuery(req: Request): void {
  const at = req.url.indexOf('?');
  if (at === -1 || !NUL_IN_QUERY.test(req.url.slice(at))) return;
  const name = Object.entries(req.query as Record<string, unknown>).find(([key, value]) =>
    [key, ...(Array.isArray(value) ? value : [value])].some((v) => typeof v === 'string' && v.includes('\u0000')),
  )?.[0];
  const param = name ?? 'query';
  throw badRequest(
    `${param} holds a NUL character (%00), which no value can`,
    [`query.${param}: holds a NUL character`],
    {
      param,
    },
  );
}
