// Authenticated encryption for data at rest: AES-256-GCM with a random 96-bit nonce, bound to
// associated data (what the value belongs to, so a ciphertext copied to another row does not open).
// Sealed form: `v1.<base64url(nonce | tag | ciphertext)>`.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** Encrypts `plaintext` under the 32-byte `key`, bound to `associatedData`. */
export function seal(key: Buffer, associatedData: string, plaintext: string | Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(associatedData));
  const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
  const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
  return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Decrypts what `seal` produced with the same key and associated data; throws otherwise. */
export function open(key: Buffer, associatedData: string, sealed: string): Buffer {
  const [version, data] = sealed.split('.');
  if (version !== VERSION || !data) throw new Error('unknown ciphertext format');
  const raw = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
}
