// Sending to webhook URLs with the address pinned (no DNS rebinding): the connection resolves the
// name once, checks every address of the answer against the URL policy, and connects to exactly
// those addresses — undici's Agent hands `connect.lookup` to net/tls.connect, so TLS SNI, the
// certificate check and the Host header keep the name. A second lookup (which a rebinding name
// would answer with 127.0.0.1 or 169.254.169.254) never happens for that connection. An address
// written in the URL is checked before sending (urlShapeProblem). Redirects are never followed.
// undici loads with the first delivery (~90 ms of CPU), not with every process that starts.
import type { LookupFunction } from 'node:net';
import type { Agent, RequestInit, Response } from 'undici';
import { addressProblem, systemResolve, type Resolve } from './url-policy.js';

interface PinnedFetch {
  send(url: string, init: Omit<RequestInit, 'dispatcher' | 'redirect'>): Promise<Response>;
  close(): Promise<void>;
}

export function pinnedFetch({
  allowPrivate,
  resolve = systemResolve,
}: {
  allowPrivate: boolean;
  resolve?: Resolve;
}): PinnedFetch {
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      (answer) => {
        const addresses = answer.filter((a) => !options.family || a.family === options.family);
        const refused = answer.map((a) => addressProblem(hostname, a.address, allowPrivate)).find(Boolean);
        const first = addresses[0];
        if (refused) callback(new Error(refused), '');
        else if (!first) callback(new Error(`url host ${hostname} cannot be resolved`), '');
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: Error) => callback(err, ''),
    );
  };
  let undici: Promise<{ agent: Agent; fetch: typeof import('undici').fetch }> | undefined;
  const loaded = () =>
    (undici ??= import('undici').then(({ Agent, fetch }) => ({ agent: new Agent({ connect: { lookup } }), fetch })));
  return {
    async send(url, init) {
      const { agent, fetch } = await loaded();
      return fetch(url, { ...init, redirect: 'manual', dispatcher: agent });
    },
    close: async () => {
      if (undici) await (await undici).agent.close();
    },
  };
}
