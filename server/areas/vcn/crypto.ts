// Card data at rest: the PAN is encrypted with AES-256-GCM (bound to its card id), the CVV is
// never stored but derived on demand by HMAC over the PAN and the expiration.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** Encrypts `pan` for the card `vcnId`: `v1.<base64url(iv | tag | ciphertext)>`. */
export function encryptPan(key: Buffer, vcnId: string, pan: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(vcnId));
  const ciphertext = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Decrypts what encryptPan produced for the same card; throws when the data or key do not match. */
export function decryptPan(key: Buffer, vcnId: string, stored: string): string {
  const [version, data] = stored.split('.');
  if (version !== VERSION || !data) throw new Error('unknown PAN ciphertext format');
  const raw = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(vcnId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The 3-digit CVV of a card, the same on every call for the same PAN, expiration and key. */
export function deriveCvv(key: Buffer, pan: string, expiration: string): string {
  const mac = createHmac('sha256', key).update(`${pan}|${expiration}`).digest();
  return String(mac.readUInt32BE(0) % 1000).padStart(3, '0');
}

/** The Luhn check digit that completes `digits`. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export const isLuhnValid = (number: string): boolean =>
  /^[0-9]{2,19}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.slice(-1));
