// Writes an export to the response as it is produced: each part waits for the socket to drain
// before the next is read (back-pressure: memory stays flat however many rows), and a client that
// goes away stops the work at the next part. The request log shows the export (`export`): its
// filters, the rows written and whether it completed (a client that left: `request aborted`).
import type { Response } from 'express';
import type { StreamBody } from '../../../kit/handler.js';

/** Thrown by `write` once the client has gone: the export stops reading. */
class ClientGone extends Error {}

/** Writes a part of the file; `rows`: how many rows it holds. */
export type Write = (text: string, rows?: number) => Promise<void>;

export interface ExportLog {
  filters: Record<string, unknown>;
  /** Rows written so far. */
  rows: number;
  completed: boolean;
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
 * The body of an export: `produce` writes its parts through `write`; `cleanup` runs however it ends
 * (the concurrency lease), before the response ends. `log` starts as `{filters, rows: 0, completed: false}`.
 */
export function streamExport(
  log: ExportLog,
  produce: (write: Write) => Promise<unknown>,
  cleanup: () => Promise<void>,
): StreamBody {
  return async (res) => {
    let closed = false;
    res.once('close', () => {
      closed = true;
    });
    const write: Write = async (text, rows = 0) => {
      if (closed || res.destroyed) throw new ClientGone();
      const drained = text === '' || res.write(text);
      log.rows += rows;
      if (!drained) await waitForDrain(res);
    };
    try {
      // HEAD: the status and headers say all there is to say; nothing is read.
      if (res.req.method !== 'HEAD') await produce(write);
      log.completed = true;
    } catch (err) {
      if (!(err instanceof ClientGone)) log.error = err instanceof Error ? err.message : String(err);
    }
    // Cleaned up before the response ends: a client that starts its next export the moment this
    // one has arrived finds the slot free, and nothing of this export changes after its answer.
    await cleanup().catch(() => undefined);
    // Bytes are out: the only honest signal of a failure left is a response cut short.
    if (log.completed) res.end();
    else res.destroy();
  };
}
