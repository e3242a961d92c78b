// What the bench's same-work peers share (same-work.ts on Express, fastify-peer.ts on Fastify): their
// arguments, the store and production configuration, each recorded request's operation, and the work
// of one request — the bearer token looked up with the store's own query, then the operation's own
// handler on the same database (the same SQL, the same JSON).
import { readFileSync } from 'node:fs';
import { contract, type ContractOperation } from '../../server/contract/index.js';
import { loadConfig } from '../../server/config.js';
import { openStore } from '../../server/db/store.js';
import { resolveSecrets } from '../../server/areas/auth/server-secrets.js';
import { lookupToken } from '../../server/areas/auth/store.js';
import { operations } from '../../server/operations.js';
import { systemClock, offsetClock } from '../../server/lib/clock.js';
import { unavailableIssuer } from '../../server/kit/card-issuer.js';
import type { HandlerContext } from '../../server/kit/handler.js';
import type { Recording } from './replay.js';

type AnyHandler = (input: unknown, ctx: HandlerContext) => Promise<{ status: number; body?: unknown }>;
type Input = { params: unknown; query: unknown; body: unknown };

/** A peer's start: `<db file> <port> <recordings.json>` from the command line, the store opened. */
export async function openPeer() {
  const [file, port, recordingsFile] = process.argv.slice(2);
  const recordings = JSON.parse(readFileSync(recordingsFile!, 'utf8')) as Recording[];
  const { db } = await openStore(file!);
  const env = { ...process.env, NODE_ENV: 'production' };
  const base = loadConfig(env);
  const config = { ...base, secrets: await resolveSecrets(db, env, base.secrets) };
  const index = contract({ sandbox: false });

  /** The recorded request's operation, and its route in Express's and Fastify's syntax. */
  const operationOf = (r: Recording): { operation: ContractOperation; route: string } => {
    const path = r.url.split('?')[0]!;
    const found = index.match(r.method, path);
    if (found.kind !== 'operation') throw new Error(`${r.method} ${path} is not an operation of the contract`);
    return { operation: found.operation, route: found.operation.path.replace(/\{([^}]+)\}/g, ':$1') };
  };

  /** One request's work: its answer, or a 401 when the token is not known. */
  const work = async (
    operation: ContractOperation,
    authorization: string | undefined,
    input: Input,
    req: unknown,
    res: unknown,
  ) => {
    const found = await lookupToken(db, systemClock, (authorization ?? '').replace(/^Bearer /, ''));
    if (!found.grant) return { status: 401, body: { error: 'Unauthorized' } };
    const { clockOffsetMs, ...grant } = found.grant;
    const ctx = {
      db,
      clock: systemClock,
      config,
      issuer: unavailableIssuer(),
      index,
      auth: { ...grant, companyClock: offsetClock(systemClock, clockOffsetMs) },
      requestId: '',
      req,
      res,
      logFields: () => undefined,
    } as unknown as HandlerContext;
    return (operations as unknown as Record<string, AnyHandler>)[operation.operationId]!(input, ctx);
  };

  // Exit (and write a --cpu-prof profile) when the bench stops it.
  process.once('SIGTERM', () => process.exit(0));
  return { port: Number(port), recordings, config, index, operationOf, work };
}
