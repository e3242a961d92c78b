// The node:http server around the application: explicit timeouts, our JSON error body on the
// errors Node answers before Express sees the request, and a prompt graceful shutdown.
import {
  createServer,
  IncomingMessage,
  ServerResponse,
  STATUS_CODES,
  type RequestListener,
  type Server,
} from 'node:http';
import type { Socket } from 'node:net';
import { reasonOfStatus } from '../kit/errors.js';
import { newRequestId } from './pipeline/request-id.js';

/** Time allowed to receive all request headers (slow-header clients are cut off after it). */
const HEADERS_TIMEOUT_MS = 10_000;
/** Time allowed to receive a whole request, body included. */
const REQUEST_TIMEOUT_MS = 60_000;

/** Headers every response carries, also those written here without Express. */
const BASE_SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

const statusOf = (code: string | undefined): number => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_URI_TOO_LONG':
      return 414;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return 408;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_BODY_OVERFLOW':
      return 413;
    default:
      return 400;
  }
};

const MESSAGES: Record<number, string> = {
  400: 'The request could not be parsed as HTTP',
  408: 'The request was not received in time',
  413: 'The request is too large',
  414: 'The request URL is too long',
  431: 'The request headers (or the URL) are too large',
};

/** A whole HTTP/1.1 response with the common error body, closing the connection. */
function rawErrorResponse(status: number, message = MESSAGES[status] ?? STATUS_CODES[status] ?? 'Error'): string {
  const requestId = newRequestId();
  const body = JSON.stringify({
    error: STATUS_CODES[status] ?? 'Error',
    message,
    code: status,
    requestId,
    reason: reasonOfStatus(status),
    details: [],
  });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    ...BASE_SECURITY_HEADERS,
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The responses being written right now (kept by `createHttpServer`). */
const inFlight = (server: Server): Set<ServerResponse> =>
  ((server as Server & { inFlight?: Set<ServerResponse> }).inFlight ??= new Set());

/** An Express app: a request listener with the prototypes it gives its requests and responses. */
type App = RequestListener & { request?: object; response?: object };

interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/** The classes of an app's requests and responses, made once per app (tests serve one app twice). */
const messageClasses = new WeakMap<App, MessageClasses>();

/**
 * Requests and responses made with the app's prototypes from the start. Express's `app.handle` sets
 * the prototype of every request and response it is given (`Object.setPrototypeOf`), a change V8
 * makes each object pay for on its next property accesses; made with that prototype already, the call
 * changes nothing. (A bare Express app answering fixed bytes: 10.6k → 35k req/s on one core.)
 * They are subclasses of Node's, whose prototypes then stand in the app's place (inheriting from what
 * was there): an instance of a class is laid out for the properties its constructors set, while a
 * function that calls Node's constructor on `this` left each response's ~40 properties in dictionary
 * mode, slower at every access (the constructor alone: 10 µs of a PATCH's CPU, against 0.1 in Node's).
 */
function messagesOf(app: App): Partial<MessageClasses> {
  if (!app.request || !app.response) return {};
  let classes = messageClasses.get(app);
  if (!classes) {
    class AppRequest extends IncomingMessage {}
    class AppResponse extends ServerResponse {}
    Object.setPrototypeOf(AppRequest.prototype, app.request);
    Object.setPrototypeOf(AppResponse.prototype, app.response);
    app.request = AppRequest.prototype;
    app.response = AppResponse.prototype;
    // (ServerResponse's type is generic in its request; the subclass's is not.)
    classes = { IncomingMessage: AppRequest, ServerResponse: AppResponse as unknown as typeof ServerResponse };
    messageClasses.set(app, classes);
  }
  return classes;
}

/** A node:http server for `app` with our timeouts and error bodies (not listening yet). */
export function createHttpServer(app: App): Server {
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, ...messagesOf(app) },
    app,
  );
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A reset socket, or one whose response has begun, cannot take an answer.
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(statusOf(err.code)));
  });
  const set = inFlight(server);
  server.prependListener('request', (_req, res) => {
    set.add(res);
    res.once('close', () => set.delete(res));
  });
  return server;
}

/** Listens on `port` (and `host`, when given) and resolves once listening. */
export async function listen(server: Server, port: number, host?: string): Promise<Server> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

interface ShutdownOptions {
  /** How long the listener keeps serving first, while `/ready` fails, so a load balancer stops sending. */
  drainMs?: number;
  /** How long in-flight requests may take, once the listener is closed, before their connections are cut. */
  graceMs: number;
  /** Runs once no connection is left (or the grace period ended); then the process may exit. */
  onClosed: () => Promise<void> | void;
}

/**
 * Graceful stop: every answer from now on carries `Connection: close`, so a kept-alive client (a load
 * balancer's pool, a client kube-proxy pinned to this process) opens its next connection elsewhere;
 * after `drainMs` no new connections, idle keep-alive sockets closed at once, `onClosed` as soon as the
 * last response ends (at most `graceMs` later).
 */
export function shutdownGracefully(server: Server, { drainMs = 0, graceMs, onClosed }: ShutdownOptions): Promise<void> {
  // Responses still running are told to close their connection; new requests, during the drain or on
  // a kept-alive socket before it closes, are answered the same way.
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  for (const res of inFlight(server)) if (!res.headersSent) res.setHeader('Connection', 'close');
  return new Promise((resolve) => {
    let done = false;
    let idleSweep: NodeJS.Timeout | undefined;
    let cap: NodeJS.Timeout | undefined;
    const finish = async () => {
      if (done) return;
      done = true;
      clearInterval(idleSweep);
      clearTimeout(cap);
      await onClosed();
      resolve();
    };
    const close = () => {
      server.close(() => void finish());
      server.closeIdleConnections();
      // A socket becomes idle when its last response ends: close those as they appear.
      idleSweep = setInterval(() => server.closeIdleConnections(), 100);
      idleSweep.unref();
      cap = setTimeout(() => {
        server.closeAllConnections();
        void finish();
      }, graceMs);
      cap.unref();
    };
    if (drainMs > 0) setTimeout(close, drainMs);
    else close();
  });
}
