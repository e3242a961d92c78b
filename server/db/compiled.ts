// Queries compiled once per shape and run many times with their own values. Kysely builds an
// operation tree and compiles it to SQL on every call, which for the banking page stood in the CPU
// profile next to running the query itself. A query whose SQL text depends only on a few
// structural choices (its shape: which filters, how many arms, a list's length) is built once per
// store kind and shape with placeholders where its values go; each run binds its own values.
//
// A value left out of both the shape and the placeholders would be baked into the cached SQL and
// reused for other requests. With VERIFY_COMPILED_QUERIES=true (the test suite) every run is also
// built from its real values and compared, so such a mistake fails the tests that exercise it.
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { storeKind } from './dialect.js';

/** Where a value goes while the query is compiled; replaced by `values[name]` on each run. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Gives the placeholder (while compiling) or the value (when verifying) of a named value. */
export type Bind = <T>(name: string) => T;

const verify = process.env.VERIFY_COMPILED_QUERIES === 'true';

/**
 * A family of compiled queries, one per shape. `build(bind)` must take every value that varies within
 * a shape through `bind(name)`, and `shape` must name every choice that changes the SQL text; `build`
 * runs only when a shape is new (and, verifying, on every run).
 */
export function compiledQueries(maxShapes = 500) {
  const cache = new Map<string, CompiledQuery>();
  return async <R>(
    db: Kysely<any>,
    shape: string,
    values: Record<string, unknown>,
    build: (bind: Bind) => Compilable<R>,
  ): Promise<QueryResult<R>> => {
    const key = `${storeKind(db)}:${shape}`;
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = build(<T>(name: string) => new Placeholder(name) as T).compile();
      if (cache.size >= maxShapes) cache.delete(cache.keys().next().value!);
      cache.set(key, compiled);
    }
    const parameters = compiled.parameters.map((p) => {
      if (!(p instanceof Placeholder)) return p;
      if (!(p.name in values)) throw new Error(`No value for ${p.name} in a compiled query`);
      return values[p.name];
    });
    const query = { ...compiled, parameters } as CompiledQuery<R>;
    if (verify) {
      const direct = build(<T>(name: string) => values[name] as T).compile();
      if (direct.sql !== query.sql || JSON.stringify(direct.parameters) !== JSON.stringify(query.parameters)) {
        throw new Error(
          `A compiled query of shape ${shape} differs from the query its values build:\n${query.sql}\n${direct.sql}`,
        );
      }
    }
    return db.executeQuery(query);
  };
}
