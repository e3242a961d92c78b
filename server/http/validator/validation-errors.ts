// The validator's list of problems, in the caller's terms: each names the field or parameter as the
// request sent it (`isConcilied`, `status`), says what to send instead (`status must be one of 1, 2,
// 3 (got 7)`, a did-you-mean for an unknown field or query parameter), and carries the reason an
// integration can branch on (`ErrorReason` in the contract). The error handler renders the result.
// The OAuth endpoints answer RFC 6749 §5.2 / RFC 7591 §3.2.2 bodies, whose one text is
// `error_description`: their problems come as an OAuthError `invalid_request` saying each of them.
import { closest, distance } from 'fastest-levenshtein';
import type { Request, Response } from 'express';
import type { ContractIndex, ContractOperation } from '../../contract/index.js';
import { operationOf } from '../pipeline/context.js';
import { formatMessage } from '../../contract/formats.js';
import { ApiError, OAuthError, type ErrorReason, type FieldProblem } from '../../kit/errors.js';

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
  /** The failed JSON Schema keyword, if any. */
  keyword?: string | undefined;
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

/** The schema at a path of a body (through $ref, allOf/oneOf/anyOf, items), resolved. */
function bodySchemaAt(index: ContractIndex, schema: Json | undefined, path: string[]): Json | undefined {
  if (!schema) return undefined;
  const s = index.resolve(schema);
  if (path.length === 0) return s;
  const [head, ...rest] = path as [string, ...string[]];
  const next = /^\d+$/.test(head) ? (s.items as Json | undefined) : ((s.properties ?? {}) as Json)[head];
  const direct = bodySchemaAt(index, next as Json | undefined, rest);
  if (direct) return direct;
  for (const v of ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (s[k] ?? []) as Json[])) {
    const found = bodySchemaAt(index, v, path);
    if (found) return found;
  }
  return undefined;
}

/** The known name nearest to `name` (case aside, or within about a third of its length), if any. */
function suggestion(name: string, known: string[]): string | undefined {
  if (known.length === 0) return undefined;
  const same = known.find((k) => k.toLowerCase() === name.toLowerCase());
  if (same) return same;
  const near = closest(name, known);
  return distance(name, near) <= Math.floor((name.length + 1) / 3) ? near : undefined;
}

const shown = (value: unknown, part: string): string => {
  // Query and path values are text: shown as sent. Body values are JSON: a string keeps its quotes.
  const text = part === 'body' || typeof value !== 'string' ? JSON.stringify(value) : value;
  return text === undefined ? '' : text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** What a contract pattern asks for, in words (no regular expression ever reaches a message). */
const PATTERNS: Record<string, string> = {
  '\\S': 'must not be blank',
  '^[A-Z]{3}$': 'must be three capital letters, e.g. "BRL"',
  '^[0-9]{4}$': 'must be four digits, e.g. "0663"',
  '^[0-9]{3}$': 'must be three digits',
  '^[0-9]{16}$': 'must be sixteen digits',
  '^[0-9]+$': 'must be digits only',
  '^[0-9A-HJKMNP-TV-Z]{26}$': 'must be a ULID (26 characters, e.g. "01JD3Q5W2K8Z9Y7X6V5T4S3R2Q")',
  '^evt_[0-9A-HJKMNP-TV-Z]{26}$': 'must be an event id ("evt_" and a ULID)',
  '^we_[0-9A-HJKMNP-TV-Z]{26}$': 'must be a webhook endpoint id ("we_" and a ULID)',
  '^msg_[0-9A-HJKMNP-TV-Z]{26}$': 'must be a delivery id ("msg_" and a ULID)',
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$':
    'must be a UUID (version 4)',
  '^(0[1-9]|1[0-2])/[0-9]{4}$': 'must be a month and year like "11/2026"',
  '^\\+[1-9][0-9]{7,14}$': 'must be a phone number in E.164 form, e.g. "+5511912345678"',
  '^[\\x20-\\x7E]+$': 'must be printable ASCII characters',
  '^[^/\\\\]+$': 'must not contain / or \\',
};

/** The characters a value of a format can hold: a reserved character outside them is a format problem first. */
const FORMAT_CHARS: Record<string, RegExp> = {
  date: /^[0-9-]*$/,
  'date-time': /^[0-9TZtz:.+-]*$/,
  uuid: /^[0-9a-fA-F-]*$/,
};

const firstType = (schema: Json): string | undefined => {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types.find((t) => t !== 'null');
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

  /** The schema the contract gives the value at a path of the request (resolved), if any. */
  const schemaAt = (op: ContractOperation | undefined, part: string, rest: string[]): Json | undefined => {
    if (!op) return undefined;
    if (part === 'body') return bodySchemaAt(index, op.jsonBodySchema, rest);
    const schema = op.paramSchemas[`${part === 'header' ? 'header' : part}.${rest[0] ?? ''}`];
    if (!schema) return undefined;
    const s = index.resolve(schema);
    return rest.length > 1 && s.items ? index.resolve(s.items) : s;
  };

  /** What the value must be, by the failed keyword and the schema's own constraint. */
  const mustBe = (keyword: string | undefined, schema: Json | undefined, part: string): string => {
    const s = schema ?? {};
    const list = (values: unknown[]) => values.map((v) => shown(v, part)).join(', ');
    switch (keyword) {
      case 'type': {
        const type = firstType(s);
        return `must be ${TYPES[type ?? ''] ?? 'of another type'}`;
      }
      case 'enum':
        return Array.isArray(s.enum) ? `must be one of ${list(s.enum)}` : 'must be one of the allowed values';
      case 'const':
        return `must be ${shown(s.const, part)}`;
      case 'format': {
        // `x-decimal-places` is checked as a custom format (contract/validator-spec.ts, formats.ts).
        const places = s['x-decimal-places'];
        if (places !== undefined) return `must have at most ${places} decimal places`;
        const format = String(s.format ?? '');
        return formatMessage(format) ?? `must be ${FORMATS[format] ?? 'in the documented format'}`;
      }
      case 'pattern':
        return PATTERNS[String(s.pattern)] ?? 'is not in the documented form';
      case 'minimum':
        return `must be at least ${s.minimum}`;
      case 'maximum':
        return `must be at most ${s.maximum}`;
      case 'exclusiveMinimum':
        return `must be more than ${s.exclusiveMinimum}`;
      case 'exclusiveMaximum':
        return `must be less than ${s.exclusiveMaximum}`;
      case 'minLength':
        return s.minLength === 1 ? 'must not be empty' : `must have at least ${s.minLength} characters`;
      case 'maxLength':
        return `must have at most ${s.maxLength} characters`;
      case 'minItems':
        return `must have at least ${s.minItems} items`;
      case 'maxItems':
        return `must have at most ${s.maxItems} items`;
      case 'uniqueItems':
        return 'must not repeat an item';
      case 'minProperties':
        return `must have at least ${s.minProperties} fields`;
      case 'maxProperties':
        return `must have at most ${s.maxProperties} fields`;
      default:
        return 'is not a valid value';
    }
  };

  const rewrite = (item: ValidatorItem, req: Request, op: ContractOperation | undefined): ValidationProblem => {
    const [rawPart = '', ...rest] = item.path.replace(/^[./]+/, '').split(/[./]/);
    const part = PARTS[rawPart] ?? rawPart;
    // Query arrays are reported per item (`status/0`); the caller sent one parameter.
    const segments = part === 'query' || part === 'path' ? rest.slice(0, 1) : rest;
    const param = segments.join('.') || part;
    const field = [rawPart, ...segments].filter(Boolean).join('.');
    const keyword = item.errorCode?.split('.')[0];
    const got = sentValue(req, part, segments);
    const gotText = got === undefined || got === '' ? '' : ` (got ${shown(got, part)})`;
    const base = { field, param };

    if (keyword === 'additionalProperties' && part === 'body') {
      const near = suggestion(segments.at(-1) ?? '', fieldsAt(index, op?.jsonBodySchema, segments.slice(0, -1)));
      const where = segments.length > 1 ? `"${segments.slice(0, -1).join('.')}"` : 'the body';
      const hint = near ? `; did you mean "${near}"?` : '';
      return { ...base, reason: 'unknown_field', message: `Unknown field "${param}" in ${where}${hint}` };
    }
    // The validator's own checks of the query carry no ajv keyword: a parameter the operation does
    // not declare is unknown; one it declares failed the reserved-character check (below).
    const declared = part === 'query' && (op?.paramNames.query ?? []).includes(param);
    if (keyword === undefined && part === 'query' && !declared) {
      const near = suggestion(param, op?.paramNames.query ?? []);
      const hint = near ? `; did you mean "${near}"?` : '';
      return { ...base, reason: 'unknown_query_parameter', message: `Unknown query parameter "${param}"${hint}` };
    }
    if (keyword === 'required') {
      return part === 'body'
        ? { field, param, reason: 'missing_field', message: `Missing field "${param}" in the body` }
        : { field, param, reason: 'missing_parameter', message: `Missing ${part} parameter "${param}"` };
    }
    const invalid = (text: string): ValidationProblem => ({
      ...base,
      keyword,
      reason: 'invalid_value',
      message: `${param} ${text}${gotText}`,
    });
    const schema = schemaAt(op, part, rest);
    if (keyword === undefined && declared && got === '') {
      const what = part === 'query' ? `leave ${param} out, or give it a value` : 'give it a value';
      return { ...base, keyword, reason: 'invalid_value', message: `${param} must not be empty: ${what}` };
    }
    if (keyword === undefined && declared) {
      // A value no value of the format could be (`01/11/2026` for a date) is told the format, not the encoding.
      const format = String(schema?.format ?? '');
      const chars = FORMAT_CHARS[format];
      if (chars && typeof got === 'string' && !chars.test(got)) return invalid(mustBe('format', schema, part));
      return invalid('must be URL-encoded (%2F for /, %3A for :)');
    }
    if (keyword === 'const' && param === 'isConciled') return invalid('must be true (reconciliation cannot be undone)');
    return invalid(mustBe(keyword, schema, part));
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
    // A body checked by the variant its shape chose (contract/validator-spec.ts) fails its `then` or
    // `else` with the reasons, and `if` with only "must match the then schema": not one of them.
    const items = (e.errors as ValidatorItem[]).filter((item) => item.errorCode?.split('.')[0] !== 'if');
    if (items.length === 0) return err;
    const operation = operationOf(res);
    const all = items.slice(0, MAX_PROBLEMS).map((item) => rewrite(item, req, operation));
    // One message per problem: of a value's failures, the first that is not its pattern speaks for it
    // (`userId must be a UUID`, not also the pattern that spells a UUID).
    const rank = (p: ValidationProblem) => (p.keyword === 'pattern' ? 1 : 0);
    const speaker = (p: ValidationProblem) =>
      all.filter((o) => o.field === p.field).sort((a, b) => rank(a) - rank(b))[0];
    const problems = all.filter((p) => speaker(p) === p);
    const details: Array<string | FieldProblem> = problems.map((p) => ({
      field: clip(p.field),
      message: clip(p.message),
    }));
    if (items.length > MAX_PROBLEMS) details.push(`… and ${items.length - MAX_PROBLEMS} more problems`);
    const first = problems[0]!;
    const message = clip(problems.map((p) => p.message).join('; '), 1000);
    if (e.status === 400 && index.errorBody(operation, 400) === 'oauth')
      return new OAuthError(400, 'invalid_request', message);
    return new ApiError(e.status, message, details, {}, { reason: first.reason, param: clip(first.param) });
  };
}

const MAX_PROBLEMS = 20;
/** Cuts a field name or message (which may quote a caller's key) to a readable length. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
