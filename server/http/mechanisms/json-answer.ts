// How a JSON answer is written: its text once (the ETag is taken from the same text), its
// Content-Type and Content-Length, one `end`. It is this app's `res.json` as well (app.ts), so every
// JSON answer (errors, probes, and the answers the validator checks through its wrapper of res.json)
// is written the same way, without Express's res.send (charset sniffing, freshness, ETag options).
import type { Response } from 'express';

/** Writes JSON, as text or already encoded (a kept answer: answer-cache.ts), with the status already set. */
export function writeJson(res: Response, body: string | Buffer): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
}

/** The app's `res.json(body)`. */
export function json(this: Response, body: unknown): Response {
  writeJson(this, JSON.stringify(body));
  return this;
}
