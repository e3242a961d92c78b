// A JSON request body read the way body-parser's json() reads it (UTF-8 with its byte-order mark
// dropped, strict: an object or an array, an empty body `{}`), for the request that needs none of its
// other work: a Content-Length within the limit, no Content-Encoding, no charset but UTF-8. That is
// every JSON body a client library sends; body-parser reads the rest (bodyReader, pipeline.ts), and
// the errors made here carry its `type`s, so the error handler answers them alike.
import type { Request } from 'express';

/** The Content-Type headers read here (spaces dropped, lower case); any other goes to body-parser. */
const PLAIN_JSON = new Set(['application/json', 'application/json;charset=utf-8']);

/** Can this request's JSON body be read here rather than by body-parser (see above)? */
export function isPlainJson(req: Request, limit: number): boolean {
  const { headers } = req;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  if (length === undefined || !/^\d{1,8}$/.test(length) || Number(length) > limit) return false;
  const type = headers['content-type'];
  return type !== undefined && PLAIN_JSON.has(type.replace(/ /g, '').toLowerCase());
}

/** An error as body-parser makes them (http-errors): the status and the `type` the error handler reads. */
const bodyError = (status: number, message: string, type: string, cause?: unknown) =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), {
    status,
    statusCode: status,
    expose: true,
    type,
  });

/**
 * Reads the body (its bytes to `verify` first, which may throw to refuse it) and parses it; a body that
 * is not JSON is a 400 `entity.parse.failed`, a request that ends early a 400 `request.aborted`.
 */
export function readPlainJson(req: Request, verify: (bytes: Buffer) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      cleanup();
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (bytes.length !== Number(req.headers['content-length']))
        return reject(bodyError(400, 'request size did not match content length', 'request.size.invalid'));
      try {
        verify(bytes);
      } catch (err) {
        return reject(err);
      }
      try {
        resolve(parseStrict(bytes.toString('utf8')));
      } catch (err) {
        reject(bodyError(400, (err as Error).message, 'entity.parse.failed', err));
      }
    };
    // `close` before `end` (the end's cleanup takes this listener off): the request was cut short.
    const onAborted = () => {
      cleanup();
      reject(bodyError(400, 'request aborted', 'request.aborted'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(bodyError(400, err.message, 'request.aborted', err));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onAborted);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onAborted);
    req.on('error', onError);
  });
}

/** body-parser's strict parse: the text without its byte-order mark, `{}` when empty, else an object or array. */
function parseStrict(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length === 0) return {};
  if (body[0] !== '{' && body[0] !== '[') {
    // JSON's white space (space, tab, line feed, carriage return), then the first character.
    const first = /^[ \t\n\r]*([^ \t\n\r]|$)/.exec(body)?.[1];
    if (first !== '{' && first !== '[') throw new SyntaxError('the body is not a JSON object or array');
  }
  return JSON.parse(body);
}
