// Changes every process sharing a PostgreSQL store hears of at once, so that what a process keeps
// between requests (token grants, the statements' data versions behind the polls' 304s) is never
// served after the change committed: a write signals in its own transaction (PostgreSQL delivers
// NOTIFY at commit, to every listening session, this process's included), and each process keeps one
// connection LISTENing. While that connection is down `live` is false and what is kept serves nothing:
// every read goes to the database, as without it. SQLite has no signals (its reads are in-process and
// cheap): nothing is kept there.
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { storeKind } from './dialect.js';

const CHANNEL = 'finance_changes';
/** After a lost connection, the next attempt to listen. */
const RECONNECT_MS = 1_000;

/** `tokens`: a token, its API client or its company changed; `statements:<companyId>`: that company's statement rows. */
type ChangeTopic = 'tokens' | `statements:${string}`;
/** What listeners hear when the connection was lost or regained: anything may have changed. */
const EVERYTHING = '*';

export interface ChangeSignals {
  /** Every change is being heard: what was kept may serve. */
  readonly live: boolean;
  /** `listener` hears each topic signalled, and EVERYTHING when the connection is lost or regained. */
  subscribe(listener: (topic: string) => void): void;
  close(): Promise<void>;
}

/** One connection LISTENing to the store's changes, reconnecting when it is lost. */
export async function listenForChanges(url: string): Promise<ChangeSignals> {
  const listeners: Array<(topic: string) => void> = [];
  const hear = (topic: string) => {
    for (const listener of listeners) listener(topic);
  };
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (from: pg.Client) => {
    if (client !== from) return;
    client = undefined;
    live = false;
    hear(EVERYTHING);
    from.end().catch(() => undefined);
    if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
  };
  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: url,
      application_name: 'company-finance-service:signals',
      connectionTimeoutMillis: Number(process.env.PG_CONNECT_TIMEOUT_MS ?? 5000),
      keepAlive: true,
    });
    client = next;
    next.on('notification', (message) => hear(message.payload || EVERYTHING));
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (client !== next || closed) return;
      live = true;
      hear(EVERYTHING);
    } catch {
      lost(next);
    }
  }
  await connect();
  return {
    get live() {
      return live;
    },
    subscribe: (listener) => void listeners.push(listener),
    async close() {
      closed = true;
      clearTimeout(retry);
      live = false;
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

/** The statement signalling `topic` when the transaction it runs in commits (SQL for PostgreSQL only). */
export const signalSql = (topic: ChangeTopic) => sql`pg_notify(${CHANNEL}, ${topic})`;

/** Signals `topic` at the commit of the transaction `db` (nothing on SQLite). */
export async function signalChange(db: Kysely<any>, topic: ChangeTopic): Promise<void> {
  if (storeKind(db) === 'postgres') await sql`select ${signalSql(topic)}`.execute(db);
}

/**
 * Values kept between requests while the signals are live, each forgotten when the topic it depends on
 * is signalled, when the signals are lost, when this process wrote for its owner (`forgetOwner`), or
 * after `maxAgeMs`. A value read while any of these happened is not kept (it may predate the change).
 */
export class Kept<V> {
  private readonly values = new Map<string, { value: V; topic: string; owner: string; at: number }>();
  private generation = 0;

  constructor(
    private readonly signals: ChangeSignals,
    private readonly options: { maxAgeMs: number; maxEntries: number; now: () => number },
  ) {
    signals.subscribe((topic) => {
      this.generation += 1;
      if (topic === EVERYTHING) this.values.clear();
      else for (const [key, kept] of this.values) if (kept.topic === topic) this.values.delete(key);
    });
  }

  /**
   * The value under `key`: kept, or read by `load` and kept when `kept` gives the topic it depends on
   * and the company that owns it (undefined: not kept, e.g. an unknown token).
   */
  async get(
    key: string,
    load: () => Promise<V>,
    keptAs: (value: V) => { topic: ChangeTopic; owner: string } | undefined,
  ): Promise<V> {
    if (!this.signals.live) return load();
    const now = this.options.now();
    const kept = this.values.get(key);
    if (kept && now - kept.at < this.options.maxAgeMs) return kept.value;
    const generation = this.generation;
    const value = await load();
    const as = keptAs(value);
    if (as && generation === this.generation && this.signals.live) {
      if (this.values.size >= this.options.maxEntries) this.values.clear();
      this.values.set(key, { value, ...as, at: now });
    }
    return value;
  }

  /** Forgets what `owner` owns: this process wrote for it, and the answer must not wait for the signal. */
  forgetOwner(owner: string): void {
    this.generation += 1;
    for (const [key, kept] of this.values) if (kept.owner === owner) this.values.delete(key);
  }
}
