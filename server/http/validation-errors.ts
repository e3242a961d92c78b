// The validator's list of problems, in the caller's terms: each names the field or parameter as the
// request sent it (`isConcilied`, `status`), says what to send instead (`status must be one of 1, 2,
// 3 (got 7)`, a did-you-mean for an unknown field or query parameter), and carries the reason an
// integration can branch on (`ErrorReason` in the contract). The error handler renders the result.
import { closest, distance } from 'fastest-levenshtein';
import type { Request, Response } from 'express';
import type { ContractIndex, ContractOperation } from '../contract/index.js';
import { operationOf } from './operation.js';
import { ApiError, type ErrorReason, type FieldProblem } from './errors.js';

type Json = Record<string, unknown>;

/** One item of express-openapi-validator's `errors`. */
export interface ValidatorItem {
  path: string;
  message: string;
  errorCode?: string;
}

interface ValidationProblem {
  /** Where, with the request part first (`body.limit.value`, `query.status`). */
  field: string;
  /** As the caller named it (`limit.value`, `status`). */
  param: string;
  reason: ErrorReason;
  message: string;
}

const PARTS: Record<string, string> = { body: 'body', query: 'query', params: 'path', path: 'path', headers: 'header' };

const FORMATS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time with offset (2026-11-23T10:00:00-03:00)',
  email: 'an email address',
  uri: 'an absolute URL',
  uuid: 'a UUID',
};
const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** The property names a body schema allows at `path` (through $ref, allOf/oneOf/anyOf, items). */
function fieldsAt(index: ContractIndex, schema: Json | undefined, path: string[]): string[] {
  if (!schema) return [];
  const s = index.resolve(schema);
  const variants = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (s[k] ?? []) as Json[]);
  if (path.length === 0) {
    return [...Object.keys((s.properties ?? {}) as Json), ...variants.flatMap((v) => fieldsAt(index, v, []))];
  }
  const [head, ...rest] = path as [string, ...string[]];
  const next = /^\d+$/.test(head) ? (s.items as Json | undefined) : ((s.properties ?? {}) as Json)[head];
  return [...fieldsAt(index, next as Json | undefined, rest), ...variants.flatMap((v) => fieldsAt(index, v, path))];
}

/** The known name nearest to `name` (case aside, or within about a third of its length), if any. */
function suggestion(name: string, known: string[]): string | undefined {
  if (known.length === 0) return undefined;
  const same = known.find((k) => k.toLowerCase() === name.toLowerCase());
  if (same) return same;
  const near = closest(name, known);
  return distance(name, near) <= Math.floor((name.length + 1) / 3) ? near : undefined;
}

const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '' : text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** Builds the rewriter for the contract the validator checks requests against. */
export function validationErrors(index: ContractIndex) {
  /** The value the caller sent at a path: the raw query text, or the parsed body's value. */
  const sentValue = (req: Request, part: string, segments: string[]): unknown => {
    if (part === 'query') {
      const values = new URL(req.originalUrl, 'http://x').searchParams.getAll(segments[0] ?? '');
      return values.length === 1 ? values[0] : values.join(',');
    }
    if (part === 'body') return segments.reduce<unknown>((at, key) => (at as Json | undefined)?.[key], req.body);
    if (part === 'path') return req.params?.[segments[0] ?? ''];
    return undefined;
  };

  const rewrite = (item: ValidatorItem, req: Request, op: ContractOperation | undefined): ValidationProblem => {
    const [rawPart = '', ...rest] = item.path.replace(/^[./]+/, '').split(/[./]/);
    const part = PARTS[rawPart] ?? rawPart;
    // Query arrays are reported per item (`status/0`); the caller sent one parameter.
    const segments = part === 'query' || part === 'path' ? rest.slice(0, 1) : rest;
    const param = segments.join('.') || part;
    const field = [rawPart, ...segments].filter(Boolean).join('.');
    const code = item.errorCode?.split('.')[0];
    const got = sentValue(req, part, segments);
    const gotText = got === undefined || got === '' ? '' : ` (got ${shown(got)})`;
    const base = { field, param };

    if (code === 'additionalProperties' && part === 'body') {
      const near = suggestion(segments.at(-1) ?? '', fieldsAt(index, op?.jsonBodySchema, segments.slice(0, -1)));
      const where = segments.length > 1 ? `"${segments.slice(0, -1).join('.')}"` : 'the body';
      const hint = near ? `; did you mean "${near}"?` : '';
      return { ...base, reason: 'unknown_field', message: `Unknown field "${param}" in ${where}${hint}` };
    }
    if (/^Unknown query parameter/.test(item.message)) {
      const near = suggestion(param, op?.paramNames.query ?? []);
      const hint = near ? `; did you mean "${near}"?` : '';
      return { ...base, reason: 'unknown_query_parameter', message: `Unknown query parameter "${param}"${hint}` };
    }
    if (code === 'required') {
      const name = /'([^']+)'/.exec(item.message)?.[1] ?? param;
      const named = part === 'body' ? param : name;
      return part === 'body'
        ? { field, param: named, reason: 'missing_field', message: `Missing field "${named}" in the body` }
        : { field, param: named, reason: 'missing_parameter', message: `Missing ${part} parameter "${named}"` };
    }
    const invalid = (text: string): ValidationProblem => ({
      ...base,
      reason: 'invalid_value',
      message: `${param} ${text}${gotText}`,
    });
    if (/must be url encoded/.test(item.message)) return invalid('must be URL-encoded (%2F for /, %3A for :)');
    const allowed = /allowed values: (.*)$/.exec(item.message)?.[1];
    if (code === 'enum' && allowed) return invalid(`must be one of ${allowed}`);
    const format = /must match format "([^"]+)"/.exec(item.message)?.[1];
    if (format === 'decimal2') return invalid('must have at most 2 decimal places');
    if (format) return invalid(`must be ${FORMATS[format] ?? `in the format ${format}`}`);
    const type = /^must be (\w+)$/.exec(item.message)?.[1];
    if (code === 'type' && type) return invalid(`must be ${TYPES[type] ?? type}`);
    const bound = /^must be ([<>]=?) (.+)$/.exec(item.message);
    if (bound) {
      const words: Record<string, string> = { '<=': 'at most', '>=': 'at least', '<': 'less than', '>': 'more than' };
      return invalid(`must be ${words[bound[1]!] ?? bound[1]} ${bound[2]}`);
    }
    const length = /^must NOT have (fewer|more) than (\d+) (characters|items|properties)$/.exec(item.message);
    if (length) return invalid(`must have ${length[1] === 'fewer' ? 'at least' : 'at most'} ${length[2]} ${length[3]}`);
    if (code === 'const' && param === 'isConciled') return invalid('must be true (reconciliation cannot be undone)');
    return invalid(item.message);
  };

  /**
   * The validator's 4xx with a list of problems, as an ApiError in the caller's terms; anything else
   * as it was. At most MAX_PROBLEMS are kept: a body of a million unknown keys gets a short answer.
   */
  return (err: unknown, req: Request, res: Response): unknown => {
    const e = err as { status?: unknown; errors?: unknown; headers?: Record<string, string> } | undefined;
    if (typeof e?.status !== 'number' || e.status < 400 || e.status >= 500 || [404, 405, 415].includes(e.status))
      return err;
    if (!Array.isArray(e.errors) || e.errors.length === 0) return err;
    const items = e.errors as ValidatorItem[];
    const operation = operationOf(res);
    const all = items.slice(0, MAX_PROBLEMS).map((item) => rewrite(item, req, operation));
    // A pattern failure says less than the format failure of the same value (`userId must be a UUID`).
    const isPattern = (p: ValidationProblem) => p.message.includes(' must match pattern ');
    const problems = all.filter((p) => !isPattern(p) || !all.some((o) => !isPattern(o) && o.field === p.field));
    const details: Array<string | FieldProblem> = problems.map((p) => ({
      field: clip(p.field),
      message: clip(p.message),
    }));
    if (items.length > MAX_PROBLEMS) details.push(`… and ${items.length - MAX_PROBLEMS} more problems`);
    const first = problems[0]!;
    const message = clip(problems.map((p) => p.message).join('; '), 1000);
    return new ApiError(e.status, message, details, {}, { reason: first.reason, param: clip(first.param) });
  };
}

const MAX_PROBLEMS = 20;
/** Cuts a field name or message (which may quote a caller's key) to a readable length. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
