// Queries prepared once and run many times with their own values. Kysely builds an operation tree and
// compiles it to SQL on every call, which for the hot queries (the banking page, the token lookup)
// stood in the CPU profile next to running the query itself; here the SQL is compiled once per store
// kind (and shape) and each run only binds its values.
//
// Safe by construction: the builder sees nothing but placeholders (`p.companyId`, …) and, for a family
// of shapes, the shape, which is also the cache key. A value can only reach the SQL as a placeholder
// bound on each run, never baked into text reused for another request. Lists bind as one value
// (`inList`: json_each on SQLite, `= any(…)` on PostgreSQL), so their length is not part of any shape.
import { type Compilable, type CompiledQuery, type Kysely, type QueryResult, type RawBuilder, sql } from 'kysely';
import type { Db } from './database.js';
import { storeKind } from './dialect.js';

/** Where a value goes while the query is compiled; replaced by the run's value of that name. */
class Placeholder {
  constructor(
    readonly name: string,
    readonly encode?: (value: unknown) => unknown,
  ) {}
}

/** What the builder gets: one placeholder per value, typed as the value it stands for. */
export type Placeholders<V> = { readonly [K in keyof V]-?: V[K] };

const placeholders = <V>(): Placeholders<V> =>
  new Proxy({} as Placeholders<V>, { get: (_target, name) => new Placeholder(String(name)) });

type Build<V, R> = (db: Db, p: Placeholders<V>) => Compilable<R>;

function bind<R>(compiled: CompiledQuery<R>, values: Record<string, unknown>): CompiledQuery<R> {
  const parameters = compiled.parameters.map((p) => {
    if (!(p instanceof Placeholder)) return p;
    if (!(p.name in values)) throw new Error(`No value for ${p.name} in a prepared query`);
    const value = values[p.name];
    return p.encode ? p.encode(value) : value;
  });
  return { ...compiled, parameters };
}

/** A query of one fixed shape: `build(db, p)` runs once per store kind. */
export function prepared<V extends Record<string, unknown>, R>(build: Build<V, R>) {
  const compiled = new Map<string, CompiledQuery<R>>();
  return (db: Db, values: V): Promise<QueryResult<R>> => {
    const kind = storeKind(db);
    let query = compiled.get(kind);
    if (!query) compiled.set(kind, (query = build(db, placeholders<V>()).compile()));
    return db.executeQuery(bind(query, values));
  };
}

/**
 * A family of queries, one per shape: the structural choices that change the SQL text (which filters,
 * how many arms, the sort). `build(db, shape, p)` runs once per store kind and shape; the shape is
 * the cache key (JSON), so whatever it holds is never mixed up between requests.
 */
export function preparedShapes<S, V extends Record<string, unknown>, R>(
  build: (db: Db, shape: S, p: Placeholders<V>) => Compilable<R>,
  maxShapes = 500,
) {
  const compiled = new Map<string, CompiledQuery<R>>();
  return (db: Db, shape: S, values: V): Promise<QueryResult<R>> => {
    const key = `${storeKind(db)}:${JSON.stringify(shape)}`;
    let query = compiled.get(key);
    if (!query) {
      query = build(db, shape, placeholders<V>()).compile();
      if (compiled.size >= maxShapes) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, query);
    }
    return db.executeQuery(bind(query, values));
  };
}

/**
 * `column` is one of `list`: bound as a single value (a JSON array read by json_each on SQLite, an array
 * on PostgreSQL), so the SQL is the same for any number of values. `list` may be a placeholder.
 */
export function inList(db: Kysely<any>, column: string, list: readonly unknown[]): RawBuilder<boolean> {
  const pg = storeKind(db) === 'postgres';
  if (pg) return sql<boolean>`${sql.ref(column)} = any(${list})`;
  const json =
    list instanceof Placeholder ? new Placeholder(list.name, (v) => JSON.stringify(v)) : JSON.stringify(list);
  return sql<boolean>`${sql.ref(column)} in (select value from json_each(${json}))`;
}
