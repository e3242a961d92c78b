// Every migration, in order. A migration, once released, is never edited: add a new one.
import type { Migration } from 'kysely';
import * as m0001 from './0001_auth.js';

export const migrations: Record<string, Migration> = {
  '0001_auth': m0001,
};
