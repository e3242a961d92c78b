// Cryptographic random bytes drawn from the system 4 KiB at a time: ids made on every request (ULIDs,
// trace and span ids) would otherwise cost a call into OpenSSL each, or one per character (ulid's
// default source), and the profile showed them.
import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(4096);
let used = pool.length;

/** Where the next `bytes` fresh bytes of the pool start (refilled when too few are left). */
function take(bytes: number): number {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return used - bytes;
}

/** A uniform fraction in [0, 1) (one byte's worth), as ulid expects of its random source. */
export const randomFraction = (): number => pool[take(1)]! / 256;

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  const at = take(bytes);
  return pool.toString('hex', at, at + bytes);
}
