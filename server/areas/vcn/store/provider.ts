// Calls to the card issuer: any failure, or no answer in time, is 503 vcn-provider-unavailable.
// The calls run inside the caller's transaction, so the timeout also bounds how long it is held.
import { VcnError } from '../../../http/errors.js';

export const ISSUER_TIMEOUT_MS = 10_000;

export async function callIssuer<T>(call: () => Promise<T>, timeoutMs = ISSUER_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the card issuer did not answer in time')), timeoutMs);
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch {
    throw new VcnError(503, 'vcn-provider-unavailable', 'The card provider is unavailable; retry later');
  } finally {
    clearTimeout(timer);
  }
}
