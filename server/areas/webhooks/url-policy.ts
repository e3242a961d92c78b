// Which URLs may receive webhooks: http(s) only, no credentials in the URL, and — unless private
// targets are allowed (the sandbox, or WEBHOOKS_ALLOW_PRIVATE=true) — no private, loopback,
// link-local or otherwise non-public address, checked at registration and again at each delivery.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Why `url` cannot receive webhooks, or undefined when it can. */
export async function webhookUrlProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url must use http or https';
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return `url host ${host} cannot be resolved`;
    }
  }
  for (const address of addresses) {
    const range = ipaddr.process(address).range();
    if (range !== 'unicast') return `url must point to a public address (${host} is ${range})`;
  }
  return undefined;
}
