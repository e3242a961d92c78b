// Deterministic identifiers for seed data, drawn from the seed's random source.
import type { Rng } from '../../../lib/random.js';

const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');

/** A UUID v4 made from `rng`. */
export function seededUuid(rng: Rng): string {
  return `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${(8 + rng.int(0, 3)).toString(16)}${hex(rng, 3)}-${hex(rng, 12)}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID for instant `ms`, its random part drawn from `rng`. */
export function seededUlid(rng: Rng, ms: number): string {
  let time = '';
  for (let i = 0, t = ms; i < 10; i += 1, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let random = '';
  for (let i = 0; i < 16; i += 1) random += CROCKFORD[rng.int(0, 31)];
  return time + random;
}
