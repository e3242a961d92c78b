// Which URLs may receive webhooks: http(s) only, no credentials in the URL, and — unless private
// targets are allowed (the sandbox, or WEBHOOKS_ALLOW_PRIVATE=true) — no private, loopback,
// link-local or otherwise non-public address. Checked at registration (the name resolved once, for
// an early answer) and at each delivery by the connection itself (pinned-fetch.ts), on the
// addresses it connects to.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to every address it has (`dns.lookup` with `all`; tests pass their own). */
export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true });

/** Why `address`, an answer for `host`, cannot receive webhooks, or undefined when it can. */
export function addressProblem(host: string, address: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  if (!ipaddr.isValid(address)) return `url host ${host} resolved to ${address}, not an address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : `url must point to a public address (${host} is ${range}: ${address})`;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** What is wrong with `url` before any name is resolved: scheme, credentials, an address written in it. */
export function urlShapeProblem(url: string, allowPrivate: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url must use http or https';
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  const host = hostOf(parsed);
  return ipaddr.isValid(host) ? addressProblem(host, host, allowPrivate) : undefined;
}

/** Why `url` cannot receive webhooks, or undefined when it can (registration: the name resolved now). */
export async function webhookUrlProblem(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<string | undefined> {
  const shape = urlShapeProblem(url, allowPrivate);
  if (shape || allowPrivate) return shape;
  const host = hostOf(new URL(url));
  if (ipaddr.isValid(host)) return undefined;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await resolve(host);
  } catch {
    return `url host ${host} cannot be resolved`;
  }
  if (addresses.length === 0) return `url host ${host} cannot be resolved`;
  for (const { address } of addresses) {
    const problem = addressProblem(host, address, allowPrivate);
    if (problem) return problem;
  }
  return undefined;
}
