// What the validator tests share: the pipeline's match step ahead of the validator as the server
// drives it, and bare Express apps listening on loopback ports, closed together.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type express from 'express';
import type { Request, Response } from 'express';
import { parse } from 'content-type';
import type { ContractIndex } from '../../server/contract/index.js';
import { startContext } from '../../server/http/pipeline/context.js';
import { noOperation } from '../../server/http/pipeline/operation.js';

/** The match and the bare media type, kept in the request's context as the pipeline keeps them. */
export const matched =
  (index: ContractIndex) =>
  (req: Request, res: Response, next: (err?: unknown) => void): void => {
    const context = startContext(res, '', undefined);
    const found = index.match(req.method, req.path);
    if (found.kind !== 'operation') return next(noOperation(found));
    context.match = { operation: found.operation, params: found.params };
    const header = req.headers['content-type'];
    if (header && context.match?.operation.mediaTypes.length)
      context.mediaType = parse(header).type.toLowerCase() || undefined;
    next();
  };

/** Apps listening on loopback ports; `close` stops them all. */
export function loopbackApps() {
  const servers: Server[] = [];
  return {
    async listen(app: express.Express): Promise<string> {
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))),
  };
}
