// RFC 6749 §2.3.1: a client's id and secret are form-urlencoded before HTTP Basic encodes them
// (oauth4webapi and openid-client send `cli_…` as `cli%5F…`). Ids and secrets this service makes
// are base64url, which decoding leaves as they are, so clients that send them raw keep working.

/** `value` form-urlencoding-decoded; as sent when it is not valid percent-encoding. */
export function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
}
