// A large page sent compressed and cacheable: compressed once (brotli and gzip, off the event loop)
// when it is made, then each request gets the encoding its `Accept-Encoding` prefers, an `ETag` per
// encoding, `Cache-Control: no-cache` (a cache keeps it and revalidates) and a 304 when its
// `If-None-Match` holds the page's tag.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

export interface Precompressed {
  /** The page's tag, without quotes; each encoding's ETag adds its suffix. */
  tag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export async function precompress(text: string): Promise<Precompressed> {
  const identity = Buffer.from(text, 'utf8');
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    promisify(gzip)(identity, { level: 9 }),
  ]);
  const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return { tag, identity, br, gzip: gz };
}

/** Sends the page (its Content-Type already set) in the encoding the request prefers, or a 304. */
export function sendPrecompressed(req: Request, res: Response, page: Precompressed): void {
  // br where acceptable (smaller), whatever order the header lists them in.
  const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : 'identity';
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity;
  const etag = `"${page.tag}${encoding === 'identity' ? '' : `-${encoding}`}"`;
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('ETag', etag);
  // Any encoding of the same page is the same page: a tag of one revalidates the others.
  const sent = req.get('If-None-Match') ?? '';
  const matches = sent
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t.replace(/^"|"$/g, '').replace(/-(br|gzip)$/, '') === page.tag);
  if (matches) {
    res.status(304).end();
    return;
  }
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
