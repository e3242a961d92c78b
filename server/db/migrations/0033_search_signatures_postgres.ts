// PostgreSQL's ordered indexes a search's page walks carry the search signature too (as SQLite's have
// since 0032): a walk there is an ordered subquery bounded to a number of entries (dialect.ts
// `searchWalk`), and with the signature in the index it reads only the index, not each row, to tell
// which entries may match (the rows' text is read for those alone). The same names as SQLite's.
import type { Kysely } from 'kysely';
import { storeKind } from '../dialect.js';
import { signWalkedIndexes } from './0032_search_signatures.js';

export async function up(db: Kysely<any>): Promise<void> {
  if (storeKind(db) === 'postgres') await signWalkedIndexes(db);
}
