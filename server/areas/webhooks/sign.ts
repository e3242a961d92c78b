// Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp`
// (Unix seconds) and `webhook-signature` — `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one
// per secret, space-separated, while a rotated secret is still valid.
import { Webhook } from 'standardwebhooks';

export function signatureHeaders(id: string, at: Date, body: string, secrets: string[]): Record<string, string> {
  // Standard Webhooks timestamps are whole seconds; sign the same second the header carries.
  const seconds = Math.floor(at.getTime() / 1000);
  const timestamp = new Date(seconds * 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' '),
  };
}
