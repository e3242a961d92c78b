// Card data at rest: the PAN is encrypted with AES-256-GCM (bound to its card id), the CVV is
// never stored but derived on demand by HMAC over the PAN and the expiration.
import { createHmac } from 'node:crypto';
import { open, seal } from '../../lib/aead.js';

/** Encrypts `pan` for the card `vcnId` (lib/aead.ts). */
export const encryptPan = (key: Buffer, vcnId: string, pan: string): string => seal(key, vcnId, pan);

/** Decrypts what encryptPan produced for the same card; throws when the data or key do not match. */
export const decryptPan = (key: Buffer, vcnId: string, stored: string): string =>
  open(key, vcnId, stored).toString('utf8');

/** Decrypts a stored PAN with the current key, else (during a rotation) the previous one. */
export function openPan(keys: { panKey: Buffer; panKeyPrevious?: Buffer }, vcnId: string, stored: string): string {
  try {
    return decryptPan(keys.panKey, vcnId, stored);
  } catch (err) {
    if (!keys.panKeyPrevious) throw err;
    return decryptPan(keys.panKeyPrevious, vcnId, stored);
  }
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
