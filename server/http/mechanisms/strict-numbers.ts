// Numbers in the query and the path are read strictly, before the validator coerces them: the
// validator's coercion (`+value`) would take `0x31` as 49, `1e1` as 10 and `1e309` as Infinity.
// An integer parameter is decimal digits with an optional minus sign; a number parameter may
// add a decimal fraction. Length is capped so no value can overflow to Infinity or lose
// precision; the contract's minimum/maximum then apply as usual.
import { badRequest } from '../../kit/errors.js';
import type { ContractOperation } from '../../contract/index.js';
import type { Step } from '../pipeline/context.js';

// At most 16 significant digits before the point: every such integer is below 2^53 (safe) once
// the contract's bounds apply, and no value can reach Infinity.
const INTEGER = /^-?[0-9]{1,16}$/;
const NUMBER = /^-?[0-9]{1,16}(\.[0-9]{1,16})?$/;

/** The operation's strict reading of its numeric query and path parameters; none when it has none. */
export function strictNumbers(operation: ContractOperation): Step | undefined {
  if (operation.numericParams.length === 0) return undefined;
  return (req, _res, context) => {
    for (const param of operation.numericParams) {
      let values: string[];
      if (param.in === 'path') {
        const value = context.match?.params[param.name];
        values = value === undefined ? [] : [value];
      } else {
        const value = (req.query as Record<string, unknown>)[param.name];
        if (value === undefined) continue;
        const all = (Array.isArray(value) ? value : [value]).map(String);
        values = param.list ? all.flatMap((v) => v.split(',')) : all;
      }
      const shape = param.kind === 'integer' ? INTEGER : NUMBER;
      const bad = values.find((v) => !shape.test(v));
      if (bad !== undefined) {
        const what = param.kind === 'integer' ? 'an integer' : 'a decimal number';
        const field = `${param.in}.${param.name}`;
        const message = `${param.name} must be ${what} (got ${bad})`;
        throw badRequest(message, [{ field, message }], { reason: 'invalid_value', param: param.name });
      }
    }
  };
}
