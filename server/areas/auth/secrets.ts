// Client secrets are kept only as scrypt hashes; access tokens only as SHA-256 digests.
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** scrypt's cost: N (CPU and memory), r (block size), p (parallelism). */
interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** The cost of every secret the service hashes: about 25 ms of CPU and 16 MiB each. */
const COST: ScryptCost = { N: 16384, r: 8, p: 1 };

/**
 * The stored hash of a secret, its cost written in it (verifySecret reads it back). `cost` is for
 * the test suite, which creates thousands of clients: the service always hashes at COST.
 */
export async function hashSecret(secret: string, cost: ScryptCost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, 32, cost);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** A new random credential: `prefix` + 256 bits, base64url. */
export const newSecret = (prefix: string) => prefix + randomBytes(32).toString('base64url');

export const digestToken = (token: string) => createHash('sha256').update(token).digest('hex');
