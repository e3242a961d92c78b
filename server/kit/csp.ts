// The Content-Security-Policy of a served user file (attachments): never run, never framed, never
// sniffed (with `Content-Disposition: attachment`). The API's own answers get theirs from
// server/http/mechanisms/security-headers.ts.
export const SANDBOX_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";
