// The public contract and the docs page as served: they name the server they are served from.
// The committed bundle says `http://localhost:8080` (the sandbox's default); the served copies
// say `PUBLIC_BASE_URL` when given, else the scheme and host the request came to (in production as
// in the sandbox: X-Forwarded-Host and -Proto count only from the peers TRUST_PROXY trusts, as
// Express's req.host and req.protocol read them). The same base names every link a handler returns
// (`Location`, signed URLs: requestConfig) and every error's docUrl.
import type { Request } from 'express';
import type { Config } from '../config.js';

/** The base URL the committed contract and the built docs page name. */
const CONTRACT_BASE_URL = 'http://localhost:8080';

/** The base URL this request should be told about. */
export function servedBaseUrl(req: Request, config: Config): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  const host = req.host;
  const protocol = req.protocol;
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) && (protocol === 'http' || protocol === 'https')
    ? `${protocol}://${host}`
    : config.baseUrl.replace(/\/+$/, '');
}

/** The configurations already made per base URL (a few hosts in practice; a flood of invented Host headers is not kept). */
const perBase = new WeakMap<Config, Map<string, Config>>();
const KEPT_BASES = 16;

/**
 * The configuration a handler sees: with PUBLIC_BASE_URL the server's own, otherwise one whose
 * `baseUrl` is this request's (servedBaseUrl), so its links name the host the caller used.
 */
export function requestConfig(req: Request, config: Config): Config {
  if (config.publicBaseUrl) return config;
  const baseUrl = servedBaseUrl(req, config);
  if (baseUrl === config.baseUrl) return config;
  let made = perBase.get(config);
  if (!made) perBase.set(config, (made = new Map()));
  const known = made.get(baseUrl);
  if (known) return known;
  const derived = { ...config, baseUrl };
  if (made.size < KEPT_BASES) made.set(baseUrl, derived);
  return derived;
}

/** The contract's text with every mention of the default base URL (servers, tokenUrl, examples) replaced. */
export function withBaseUrl(text: string, baseUrl: string): string {
  return baseUrl === CONTRACT_BASE_URL ? text : text.split(CONTRACT_BASE_URL).join(baseUrl);
}
