// Numbers in the query and the path are read strictly, before the validator coerces them: the
// validator's coercion (`+value`) would take `0x31` as 49, `1e1` as 10 and `1e309` as Infinity.
// An integer parameter is decimal digits with an optional minus sign; a number parameter may
// add a decimal fraction. Length is capped so no value can overflow to Infinity or lose
// precision; the contract's minimum/maximum then apply as usual.
import type { NextFunction, Request, Response } from 'express';
import { badRequest } from './errors.js';
import { operationOf } from './operation.js';

type Json = Record<string, unknown>;
type Kind = 'integer' | 'number';

interface NumericParam {
  in: 'query' | 'path';
  name: string;
  kind: Kind;
  /** The value is an array serialized as comma-separated items (style form, explode false). */
  list: boolean;
}

// At most 16 significant digits before the point: every such integer is below 2^53 (safe) once
// the contract's bounds apply, and no value can reach Infinity.
const INTEGER = /^-?[0-9]{1,16}$/;
const NUMBER = /^-?[0-9]{1,16}(\.[0-9]{1,16})?$/;

const kindOf = (schema: Json | undefined): Kind | undefined => {
  const type = schema?.type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  return undefined;
};

/** The numeric query and path parameters of each operation, by operationId. */
function numericParamsOf(bundle: Json): Map<string, NumericParam[]> {
  const components = ((bundle.components as Json | undefined)?.parameters ?? {}) as Record<string, Json>;
  const resolve = (p: Json): Json => (typeof p.$ref === 'string' ? (components[p.$ref.split('/').pop()!] ?? {}) : p);
  const byOperation = new Map<string, NumericParam[]>();
  for (const item of Object.values((bundle.paths ?? {}) as Record<string, Json>)) {
    const shared = ((item.parameters ?? []) as Json[]).map(resolve);
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters' || !op || typeof op !== 'object') continue;
      const params: NumericParam[] = [];
      for (const p of [...shared, ...(((op as Json).parameters ?? []) as Json[]).map(resolve)]) {
        if (p.in !== 'query' && p.in !== 'path') continue;
        const schema = p.schema as Json | undefined;
        const list = schema?.type === 'array';
        const kind = kindOf(list ? (schema!.items as Json) : schema);
        if (kind) params.push({ in: p.in, name: String(p.name), kind, list });
      }
      if (params.length > 0) byOperation.set(String((op as Json).operationId), params);
    }
  }
  return byOperation;
}

const decode = (raw: string) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** Rejects (400) numeric query and path parameters that are not plain decimal numbers (after operation.ts). */
export function strictNumbers(bundle: Json) {
  const numericParams = numericParamsOf(bundle);
  return (req: Request, res: Response, next: NextFunction): void => {
    const operation = operationOf(res);
    const params = operation && numericParams.get(operation.operationId);
    if (!params) return next();
    const match = operation.pattern.exec(req.path);
    for (const param of params) {
      let values: string[];
      if (param.in === 'path') {
        const index = operation.pathNames.indexOf(param.name);
        values = index >= 0 && match?.[index + 1] !== undefined ? [decode(match[index + 1]!)] : [];
      } else {
        const value = (req.query as Record<string, unknown>)[param.name];
        if (value === undefined) continue;
        const all = (Array.isArray(value) ? value : [value]).map(String);
        values = param.list ? all.flatMap((v) => v.split(',')) : all;
      }
      const shape = param.kind === 'integer' ? INTEGER : NUMBER;
      const bad = values.find((v) => !shape.test(v));
      if (bad !== undefined) {
        const what = param.kind === 'integer' ? 'an integer in decimal digits' : 'a decimal number';
        const field = `${param.in}.${param.name}`;
        return next(badRequest(`${field} must be ${what}`, [{ field, message: `${param.name} must be ${what}` }]));
      }
    }
    next();
  };
}
