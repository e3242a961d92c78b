// Result rows of a SQLite statement as objects, built in JavaScript. better-sqlite3 builds each row
// object in C++ key by key, which the CPU profile showed costing more than reading the values, and
// the objects it makes are slow to read and serialize afterwards. Rows are read as arrays (`raw` mode) and turned into
// objects by a function made once per column list, an object literal with the columns in order, so
// every row of a statement shares one hidden class. Same keys, values and duplicate-name rule (the
// last column of a name wins) as better-sqlite3's own objects.
import type SQLite from 'better-sqlite3';

type Row = Record<string, unknown>;
type Build = (values: unknown[]) => Row;

interface Shape {
  columns: number;
  build: Build;
}

const shapes = new WeakMap<SQLite.Statement, Shape | null>();
const builders = new Map<string, Build>();
const MAX_BUILDERS = 1_000;

function builder(names: string[]): Build | null {
  // A column named __proto__ would set the prototype in an object literal: keep better-sqlite3's objects.
  if (names.includes('__proto__')) return null;
  const key = JSON.stringify(names);
  let build = builders.get(key);
  if (!build) {
    // Keys are JSON string literals: column names cannot change the code around them.
    build = new Function(
      'v',
      `return {${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`,
    ) as Build;
    if (builders.size >= MAX_BUILDERS) builders.clear();
    builders.set(key, build);
  }
  return build;
}

function shapeOf(statement: SQLite.Statement): Shape | null {
  const names = statement.columns().map((c) => c.name);
  const build = builder(names);
  const shape = build ? { columns: names.length, build } : null;
  statement.raw(shape !== null);
  shapes.set(statement, shape);
  return shape;
}

/** All rows of a statement that returns data (`statement.reader`). */
export function readRows(statement: SQLite.Statement, parameters: readonly unknown[]): Row[] {
  let shape = shapes.get(statement);
  if (shape === undefined) shape = shapeOf(statement);
  if (shape === null) return statement.all(parameters) as Row[];
  let rows = statement.all(parameters) as unknown[][];
  // Another process's migration can change what `select *` returns: SQLite re-prepares the statement.
  if (rows.length > 0 && rows[0]!.length !== shape.columns) {
    shape = shapeOf(statement);
    if (shape === null) return statement.all(parameters) as Row[];
    rows = statement.all(parameters) as unknown[][];
  }
  const build = shape.build;
  const out = new Array<Row>(rows.length);
  for (let i = 0; i < rows.length; i += 1) out[i] = build(rows[i]!);
  return out;
}
