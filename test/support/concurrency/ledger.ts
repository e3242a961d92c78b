// A ledger kept as docs/sync.md tells integrators to keep one: the statement's change feed applied
// page by page (added and modified are upserts, removed are deletes), its cursor saved after each
// page. At the end of a run it must equal the statement's list, read whole.
import type { Answer, Http } from './http.js';
import type { Statement } from './history.js';

/** A feed or list request that was not answered 200: the answer, for the history. */
export class ReadFailure extends Error {
  constructor(
    readonly what: string,
    readonly answer: Answer,
  ) {
    super(`${what}: ${answer.kind === 'answer' ? `${answer.status} ${JSON.stringify(answer.body)}` : answer.message}`);
  }
}

type Row = { id: string | number } & Record<string, unknown>;

interface FeedPage {
  added: Row[];
  modified: Row[];
  removed: Array<{ id: string | number }>;
  nextCursor: string;
  hasMore: boolean;
}

export class Ledger {
  readonly rows = new Map<string, Row>();
  private cursor: string | undefined;
  private running: Promise<void> | undefined;

  constructor(readonly statement: Statement) {}

  /**
   * Follows the feed until `hasMore` is false. A poll while one runs waits for it instead (one
   * ledger has one cursor); a failed page (the process was killed) leaves the ledger where its last
   * page put it, and says why.
   */
  catchUp(http: Http, limit: number): Promise<void> {
    this.running ??= this.follow(http, limit).finally(() => (this.running = undefined));
    return this.running;
  }

  private async follow(http: Http, limit: number): Promise<void> {
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit), ...(this.cursor ? { cursor: this.cursor } : {}) });
      const answer = await http.send({ method: 'GET', path: `/statements/v1/${this.statement}/sync?${query}` });
      if (answer.kind !== 'answer' || answer.status !== 200) throw new ReadFailure(`feed ${this.statement}`, answer);
      const page = answer.body as FeedPage;
      for (const row of [...page.added, ...page.modified]) this.rows.set(String(row.id), row);
      for (const { id } of page.removed) this.rows.delete(String(id));
      this.cursor = page.nextCursor;
      if (!page.hasMore) return;
    }
  }
}

/** The statement's list, every page, by id. */
export async function listAll(http: Http, statement: Statement): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  let key: string | undefined;
  do {
    const query = new URLSearchParams({
      limit: statement === 'banking' ? '50' : '100',
      ...(key ? { nextPageStartKey: key } : {}),
    });
    const answer = await http.send({ method: 'GET', path: `/statements/v1/${statement}?${query}` });
    if (answer.kind !== 'answer' || answer.status !== 200) throw new ReadFailure(`list ${statement}`, answer);
    const page = answer.body as { transactions: Row[]; nextPageStartKey?: string };
    for (const row of page.transactions) rows.set(String(row.id), row);
    key = page.nextPageStartKey;
  } while (key);
  return rows;
}
