// RFC 8707 resource indicators: the one resource this authorization server issues tokens for is the
// API served at its base URL (`/mcp`, the same API for assistants, names it too).

/** Whether `resource` names this API (its base URL, or its `/mcp` endpoint), trailing slash aside. */
export function isThisResource(resource: string, baseUrl: string): boolean {
  const base = baseUrl.replace(/\/+$/, '');
  const asked = resource.replace(/\/+$/, '');
  return asked === base || asked === `${base}/mcp`;
}
