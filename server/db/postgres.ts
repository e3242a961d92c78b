// The PostgreSQL store: a `pg` pool behind Kysely's PostgresDialect. Type parsers make rows come
// back in the shapes the SQLite store gives, so every answer is the same on both:
//  - every `integer` column is created as bigint (SixtyFourBitIntegers, below), 64-bit like SQLite's
//    INTEGER; bigint (ids, money, counts) and numeric (sums) come back as JavaScript numbers;
//  - timestamptz as the ISO-8601 UTC string the code writes (`Date#toISOString()`).
// Sessions run in UTC. Text compares byte-wise only under a C collation: the database should be
// created with one (LC_COLLATE 'C' or 'C.UTF-8'), as names sort and page by it.
import pg from 'pg';
import {
  DataTypeNode,
  OperationNodeTransformer,
  PostgresDialect,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;

function safeNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) && Number.isInteger(n)) throw new Error(`integer ${text} is beyond the safe range`);
  return n;
}

const builtin = pg.types.getTypeParser.bind(pg.types) as (
  oid: number,
  format?: 'text' | 'binary',
) => (value: string) => unknown;
const parseTimestamptz = builtin(TIMESTAMPTZ) as (value: string) => Date;

/** Per-pool type parsers (the global `pg.types` stays untouched). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format === 'binary') return builtin(oid, format);
    if (oid === INT8) return safeNumber;
    if (oid === NUMERIC) return Number;
    if (oid === TIMESTAMPTZ) return (value: string) => parseTimestamptz(value).toISOString();
    return builtin(oid, format);
  },
};

// Read when a pool is made, not when this module loads (a process may open stores under other settings).
/** Connections per process; replicas × workers × this must stay under the server's max_connections. */
const poolSize = () => Number(process.env.PG_POOL_SIZE ?? 10);
/** How long a query waits for a connection (a new one, or one of a full pool) before it fails as unavailable. */
const connectTimeoutMs = () => Number(process.env.PG_CONNECT_TIMEOUT_MS ?? 5000);

const pools = new Set<pg.Pool>();

/** Connections of this process's open pools, for metrics. */
export function poolUsage(): { total: number; idle: number; waiting: number } {
  const usage = { total: 0, idle: 0, waiting: 0 };
  for (const pool of pools) {
    if (pool.ended) {
      pools.delete(pool);
      continue;
    }
    usage.total += pool.totalCount;
    usage.idle += pool.idleCount;
    usage.waiting += pool.waitingCount;
  }
  return usage;
}

export function postgresDialect(url: string): { dialect: PostgresDialect; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize(),
    connectionTimeoutMillis: connectTimeoutMs(),
    types: types as pg.CustomTypesConfig,
    options: '-c TimeZone=UTC',
    application_name: 'company-finance-service',
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => undefined);
  // Nor a checked-out client losing it between two queries (pg emits that on the client): its next
  // query fails instead, and the caller answers 503.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pools.add(pool);
  return { dialect: new PostgresDialect({ pool }), pool };
}

/** `integer` columns become `bigint`: 64-bit like SQLite's INTEGER, so every id the contract allows fits. */
class IntegerAsBigint extends OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    return node.dataType === 'integer' ? DataTypeNode.create('bigint') : node;
  }
}

export class SixtyFourBitIntegers implements KyselyPlugin {
  readonly #transformer = new IntegerAsBigint();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
