// Calls to the card issuer: any failure of the issuer is 503 vcn-provider-unavailable.
import { VcnError } from '../../../http/errors.js';

export async function callIssuer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw new VcnError(503, 'vcn-provider-unavailable', 'The card provider is unavailable; retry later');
  }
}
