// IANA time zone names, checked against the runtime's time zone data.

/** True for an IANA time zone name the runtime knows (America/Sao_Paulo, UTC). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
