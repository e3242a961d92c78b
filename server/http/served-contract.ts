// The public contract and the docs page as served: they name the server they are served from.
// The committed bundle says `http://localhost:8080` (the sandbox's default); the served copies
// say `PUBLIC_BASE_URL` when given, else (sandbox only) the scheme and host the request came to.
import type { Request } from 'express';
import type { Config } from '../config.js';

/** The base URL the committed contract and the built docs page name. */
const CONTRACT_BASE_URL = 'http://localhost:8080';

/** The base URL this request should be told about. */
export function servedBaseUrl(req: Request, config: Config): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  if (config.production) return config.baseUrl.replace(/\/+$/, '');
  const host = req.get('host');
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `${req.protocol}://${host}` : config.baseUrl.replace(/\/+$/, '');
}

/** The contract's text with every mention of the default base URL (servers, tokenUrl, examples) replaced. */
export function withBaseUrl(text: string, baseUrl: string): string {
  return baseUrl === CONTRACT_BASE_URL ? text : text.split(CONTRACT_BASE_URL).join(baseUrl);
}
