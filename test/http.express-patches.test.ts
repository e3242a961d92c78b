// What the server replaces in Express, checked on the Express installed: the app's request and
// response prototypes (server/http/server.ts), `app.handle` (server/app.ts: its last resort instead of
// Express's HTML page), `res.json` (http/mechanisms/json-answer.ts) and the `req.query` getter the
// pipeline and the validator turn into a value. An upgrade that moves one of them would leave the
// server slower or answering Express's own pages without any other test noticing at once: each check
// names the member. package.json pins express exactly; upgrade it on purpose, with this file.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { createHttpServer, listen } from '../server/http/server.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

type PatchedApp = ReturnType<typeof express> & {
  handle(req: unknown, res: unknown, done?: unknown): void;
  request: object;
  response: { json: unknown };
};

describe('the Express members the server replaces', () => {
  it('when package.json names express, then it is one exact version', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.express, 'express must be pinned exactly: the server replaces its members').toMatch(
      /^\d+\.\d+\.\d+$/,
    );
  });

  it('when Node calls an app, then it calls app.handle as found at that moment, without a callback (server/app.ts replaces app.handle)', () => {
    const app = express() as PatchedApp;
    expect(typeof app.handle, 'express: app.handle').toBe('function');
    let seen: unknown[] | undefined;
    app.handle = (...args: unknown[]) => {
      seen = args;
    };
    const [req, res] = [{}, {}];
    (app as unknown as (req: object, res: object) => void)(req, res);
    expect(seen, 'express: app(req, res) no longer calls app.handle looked up on the app').toBeDefined();
    expect(seen![0]).toBe(req);
    expect(seen![1]).toBe(res);
    expect(seen![2], 'express: app.handle is given a callback when Node calls the app').toBeUndefined();
  });

  it('when the app answers through createHttpServer, then requests and responses have the replaced prototypes and res.json is the replaced one', async () => {
    const app = express() as PatchedApp;
    const original = { request: app.request, response: app.response };
    expect(Object.getPrototypeOf(original.request), 'express: app.request inherits express.request').toBe(
      express.request,
    );
    expect(Object.getPrototypeOf(original.response), 'express: app.response inherits express.response').toBe(
      express.response,
    );
    expect(typeof express.response.json, 'express: response.json').toBe('function');
    const replacedJson = function (this: Response, body: unknown) {
      this.setHeader('X-Replaced-Json', 'yes');
      this.setHeader('Content-Type', 'application/json');
      this.end(JSON.stringify(body));
      return this;
    };
    app.response.json = replacedJson;
    app.get('/', (req: Request, res: Response) => {
      res.json({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
        json: res.json === replacedJson,
      });
    });
    const server = await listen(createHttpServer(app), 0, '127.0.0.1');
    servers.push(server);
    expect(app.request, 'server/http/server.ts: app.request is replaced by its subclass').not.toBe(original.request);
    expect(Object.getPrototypeOf(app.request)).toBe(original.request);
    expect(Object.getPrototypeOf(app.response)).toBe(original.response);

    const { port } = server.address() as { port: number };
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(answer.headers.get('X-Replaced-Json'), 'express: res.json is not read from app.response').toBe('yes');
    expect(
      await answer.json(),
      'express: app.handle no longer sets the prototypes from app.request/app.response',
    ).toEqual({
      request: true,
      response: true,
      json: true,
    });
  });

  it('when a request is made, then req.query is a configurable getter of express.request (made a value per request)', () => {
    const query = Object.getOwnPropertyDescriptor(express.request, 'query');
    expect(typeof query?.get, 'express: request.query getter').toBe('function');
    expect(query?.configurable, 'express: request.query is configurable').toBe(true);
  });
});
