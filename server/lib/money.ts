// Money crosses the API as JSON numbers with at most 2 decimals and is stored as integer minor units.

/** 19.99 → 1999. The contract guarantees at most 2 decimals; anything else is a programming error. */
export function toMinor(amount: number): number {
  const minor = Math.round(amount * 100);
  if (!Number.isSafeInteger(minor) || Math.abs(minor - amount * 100) > 1e-6 * Math.max(1, Math.abs(amount))) {
    throw new Error(`not a 2-decimal amount: ${amount}`);
  }
  return minor;
}

/** 1999 → 19.99 */
export function fromMinor(minor: number): number {
  return minor / 100;
}

/** True when `amount` has at most 2 decimal places (decided on its shortest decimal representation). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  if (!Number.isFinite(amount)) return false;
  const text = String(amount);
  if (/e/i.test(text)) {
    const [mantissa = '', exp = '0'] = text.toLowerCase().split('e');
    const decimals = (mantissa.split('.')[1] ?? '').length - Number(exp);
    return decimals <= 2;
  }
  return (text.split('.')[1] ?? '').length <= 2;
}
