// ULIDs (request, event, delivery and card ids) whose random part comes from a pool of
// cryptographic random bytes refilled 4 KiB at a time: ulid's default source asks the system for
// one byte per character, a system call for each of the 16 random characters of every id.
import { randomFillSync } from 'node:crypto';
import { monotonicFactory, ulid } from 'ulid';

const pool = Buffer.alloc(4096);
let used = pool.length;

/** A uniform fraction in [0, 1) from the pool, as ulid expects of its random source. */
const pooledRandom = (): number => {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]! / 256;
};

/** A ULID. */
export const newUlid = (): string => ulid(undefined, pooledRandom);

/** ULIDs that sort in the order they were made, even within one millisecond. */
export const monotonicUlids = () => monotonicFactory(pooledRandom);
