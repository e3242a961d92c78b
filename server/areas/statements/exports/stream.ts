// Writes an export to the response as it is produced: each part waits for the socket to drain
// before the next is read (back-pressure: memory stays flat however many rows), and a client that
// goes away stops the work at the next part. The outcome goes to the request log (`export`).
import type { Response } from 'express';
import type { StreamBody } from '../../../http/handler.js';

/** Thrown by `write` once the client has gone: the export stops reading. */
class ClientGone extends Error {}

export type Write = (text: string) => Promise<void>;

export interface ExportLog {
  filters: Record<string, unknown>;
  rows?: number;
  completed?: boolean;
  /** Why an export that had started stopped, other than the client leaving. */
  error?: string;
}

function waitForDrain(res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (gone: boolean) => () => {
      res.off('drain', drained);
      res.off('close', closed);
      if (gone) reject(new ClientGone());
      else resolve();
    };
    const drained = done(false);
    const closed = done(true);
    res.once('drain', drained);
    res.once('close', closed);
  });
}

/**
 * The body of an export: `produce` writes its parts through `write` and answers the number of rows;
 * `cleanup` runs however it ends (the concurrency lease).
 */
export function streamExport(
  log: ExportLog,
  produce: (write: Write) => Promise<number>,
  cleanup: () => Promise<void>,
): StreamBody {
  return async (res) => {
    res.locals.export = log;
    const write: Write = async (text) => {
      if (res.destroyed || res.writableEnded) throw new ClientGone();
      if (text !== '' && !res.write(text)) await waitForDrain(res);
    };
    try {
      log.rows = await produce(write);
      log.completed = true;
      res.end();
    } catch (err) {
      log.completed = false;
      if (!(err instanceof ClientGone)) log.error = err instanceof Error ? err.message : String(err);
      // Bytes are out: the only honest signal left is a response cut short.
      res.destroy();
    } finally {
      await cleanup().catch(() => undefined);
    }
  };
}
