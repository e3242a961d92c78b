// What the migrations made beside tables and plain indexes, which a database can lose while its
// migration table still says every migration ran: pg_restore reports an object it could not create
// and goes on without it (the word-search indexes, before 0038), and an index built CONCURRENTLY that
// failed stays behind invalid (never used, still written). `finance migrate --status` names what is
// missing, every start warns of it, and `finance migrate --repair` rebuilds what it can: the
// extensions, `finance_fold`, the word-search indexes and any invalid index, each without holding
// writes. test/ops.restore.test.ts checks that these lists hold every function, trigger, extension,
// virtual table and index built on our functions that the migrations make.
import { sql, type Kysely } from 'kysely';
import { storeKind } from '../dialect.js';
import { buildSearchIndexes, defineFold, SEARCH_INDEXES } from './0038_restore_safe_functions.js';

type Kind = 'extension' | 'function' | 'trigger' | 'index' | 'table';

interface Expected {
  kind: Kind;
  name: string;
  /** The migration that made it: checked once that migration ran. */
  migration: string;
  /** `finance migrate --repair` rebuilds it. */
  rebuilt?: true;
}

interface MissingObject extends Expected {
  problem: 'missing' | 'invalid';
  /** What to do about it, in an operator's words. */
  fix: string;
}

const SEARCH = '0020_statement_search';

const POSTGRES: Expected[] = [
  { kind: 'extension', name: 'unaccent', migration: SEARCH, rebuilt: true },
  { kind: 'extension', name: 'pg_trgm', migration: SEARCH, rebuilt: true },
  { kind: 'function', name: 'finance_fold', migration: SEARCH, rebuilt: true },
  ...SEARCH_INDEXES.map((index) => ({
    kind: 'index' as const,
    name: index.name,
    migration: SEARCH,
    rebuilt: true as const,
  })),
  { kind: 'function', name: 'audit_entries_append_only', migration: '0025_audit_log' },
  { kind: 'trigger', name: 'audit_entries_no_update', migration: '0025_audit_log' },
  { kind: 'function', name: 'finance_signal_tokens', migration: '0028_token_signals' },
  ...['access_tokens', 'api_clients', 'companies'].map((table) => ({
    kind: 'trigger' as const,
    name: `${table}_signal_tokens`,
    migration: '0028_token_signals',
  })),
  ...['banking_transactions', 'credit_card_transactions'].flatMap((table) =>
    (['function', 'trigger'] as const).map((kind) => ({
      kind,
      name: `${table}_signature`,
      migration: '0032_search_signatures',
    })),
  ),
];

const SQLITE: Expected[] = [
  ...['banking_search', 'credit_card_search'].flatMap((fts) => [
    { kind: 'table' as const, name: fts, migration: SEARCH },
    ...['insert', 'update', 'delete'].map((event) => ({
      kind: 'trigger' as const,
      name: `${fts}_${event}`,
      migration: SEARCH,
    })),
  ]),
  { kind: 'trigger', name: 'audit_entries_no_update', migration: '0025_audit_log' },
  { kind: 'trigger', name: 'banking_transactions_signature', migration: '0032_search_signatures' },
  { kind: 'trigger', name: 'credit_card_transactions_signature', migration: '0032_search_signatures' },
];

/** What the migrations make on this kind of store (the tests compare it with a new database's). */
export const expectedObjects = (db: Kysely<any>): readonly Expected[] =>
  storeKind(db) === 'postgres' ? POSTGRES : SQLITE;

interface Present {
  kind: Kind;
  name: string;
  valid: boolean;
}

/** The objects of these kinds in the store (PostgreSQL: in the schema the tables are in), one query. */
export async function presentObjects(db: Kysely<any>): Promise<Present[]> {
  if (storeKind(db) === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string }>`select type, name from sqlite_master
      where type = 'trigger' or (type = 'table' and sql like 'CREATE VIRTUAL TABLE%')`.execute(db);
    return rows.map((row) => ({ kind: row.type === 'trigger' ? 'trigger' : 'table', name: row.name, valid: true }));
  }
  const { rows } = await sql<Present>`with here as (select oid from pg_namespace where nspname = current_schema())
    select 'extension' as kind, extname as name, true as valid from pg_extension
    union all select 'function', p.proname, true from pg_proc p
      where p.pronamespace = (select oid from here)
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all select 'trigger', t.tgname, true from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and c.relnamespace = (select oid from here)
    union all select 'index', c.relname, i.indisvalid from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relnamespace = (select oid from here)`.execute(db);
  return rows;
}

const REPAIR = 'finance migrate --repair rebuilds it without holding writes';

/**
 * The expected objects of the migrations in `applied` that the store lacks, and on PostgreSQL every
 * invalid index (a CONCURRENTLY build that failed), with what to do about each.
 */
export async function missingObjects(db: Kysely<any>, applied: readonly string[]): Promise<MissingObject[]> {
  const present = await presentObjects(db);
  const has = (kind: Kind, name: string) => present.some((p) => p.kind === kind && p.name === name);
  const missing: MissingObject[] = expectedObjects(db)
    .filter((object) => applied.includes(object.migration) && !has(object.kind, object.name))
    .map((object) => ({
      ...object,
      problem: 'missing',
      fix: object.rebuilt
        ? REPAIR
        : storeKind(db) === 'postgres'
          ? `restore the database again (docs/operating.md), or run the SQL of migration ${object.migration}`
          : 'restore a copy made by finance backup (docs/operating.md)',
    }));
  for (const index of present.filter((p) => p.kind === 'index' && !p.valid))
    missing.push({ kind: 'index', name: index.name, migration: '', problem: 'invalid', fix: REPAIR });
  return missing;
}

/** One line per problem, e.g. `missing index banking_transactions_search (0020_statement_search): …`. */
export const describeMissing = (object: MissingObject) =>
  `${object.problem} ${object.kind} ${object.name}${object.migration ? ` (${object.migration})` : ''}: ${object.fix}`;

/**
 * `finance migrate --repair`: rebuilds the extensions, `finance_fold` and the word-search indexes
 * that are missing, and every invalid index, CONCURRENTLY (writes go on). Outside a transaction.
 * Returns what it rebuilt; the rest (SQLite, the triggers) is for a restore.
 */
export async function repairObjects(db: Kysely<any>): Promise<string[]> {
  if (storeKind(db) !== 'postgres') return [];
  const present = await presentObjects(db);
  const lacks = (kind: Kind, name: string) => !present.some((p) => p.kind === kind && p.name === name);
  const rebuilt = (['unaccent', 'pg_trgm'] as const)
    .filter((name) => lacks('extension', name))
    .map((name) => `extension ${name}`);
  // The function names the unaccent extension's schema: defined again when either is missing.
  if (lacks('function', 'finance_fold') || lacks('extension', 'unaccent')) {
    await defineFold(db);
    if (lacks('function', 'finance_fold')) rebuilt.push('function finance_fold');
  }
  rebuilt.push(...(await buildSearchIndexes(db)).map((name) => `index ${name}`));
  const search: readonly string[] = SEARCH_INDEXES.map((index) => index.name);
  for (const index of present.filter((p) => p.kind === 'index' && !p.valid && !search.includes(p.name))) {
    await sql`reindex index concurrently ${sql.id(index.name)}`.execute(db);
    rebuilt.push(`index ${index.name}`);
  }
  return rebuilt;
}
