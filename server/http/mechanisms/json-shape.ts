// A linear scan of a JSON body before it is parsed: too many members or too deep a nesting is a
// 400 at once. Parsing a megabyte of tiny keys costs a few hundred milliseconds and a lot of
// memory; deep nesting would exhaust the validator's recursion. No request of the contract
// comes near these limits, except the sandbox's batches of 1,000 transactions, which get their own
// (`x-max-members` of the operation's request body).
import { badRequest } from '../../kit/errors.js';

/** The member limit of a JSON body, unless its operation declares another. */
export const MAX_JSON_MEMBERS = 5_000;
const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COLON = 0x3a,
  COMMA = 0x2c;
const OPEN_OBJECT = 0x7b,
  OPEN_ARRAY = 0x5b,
  CLOSE_OBJECT = 0x7d,
  CLOSE_ARRAY = 0x5d;

/** Throws a 400 when `bytes` (JSON text) holds more members or deeper nesting than allowed. */
export function assertJsonShape(bytes: Buffer, maxMembers = MAX_JSON_MEMBERS): void {
  let inString = false;
  let depth = 0;
  let members = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === COLON || c === COMMA) {
      if (++members > maxMembers)
        throw badRequest(`The request body has more than ${maxMembers} members`, [
          `body: more than ${maxMembers} members`,
        ]);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_JSON_DEPTH)
        throw badRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`, [
          `body: nested deeper than ${MAX_JSON_DEPTH} levels`,
        ]);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What makes `text` unfit to store or compare as text: a lone surrogate, or a NUL (PostgreSQL's text holds none). */
const textProblem = (text: string): string | undefined =>
  LONE_SURROGATE.test(text)
    ? 'holds an unpaired surrogate'
    : text.includes('\u0000')
      ? 'holds a NUL character (U+0000)'
      : undefined;

/** The path and problem of the first string (or key) in `value` that is not storable text. */
function illFormedString(value: unknown, path = 'body', depth = 0): { path: string; problem: string } | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, problem } : undefined;
  }
  if (!value || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key);
    if (problem) return { path, problem: `a key ${problem}` };
    const found = illFormedString(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Throws the 400 of a body holding strings that cannot be stored or compared as text (lone surrogates, NUL). */
export function assertWellFormed(body: unknown): void {
  const found = illFormedString(body);
  if (found) throw badRequest(`${found.path} is not valid text`, [`${found.path}: ${found.problem}`]);
}
